import StrataCLI

// The build plugin's copy of `strata`, linked as SwiftPM links by default (Package.swift).
CommandLineTool.main()
