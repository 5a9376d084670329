import Foundation

// The app module docs/testing-apps.md's tests import (`import PeopleApp`): its bundle, made
// public for its tests as the page says. Hidden: not a sample, a stand-in for the reader's app.
public var appBundle: Bundle { .module }
