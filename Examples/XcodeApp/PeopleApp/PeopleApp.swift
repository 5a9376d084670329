import Strata
import SwiftUI

// The app's SwiftUI entry point. Compiled by Xcode only: the package's target for this folder
// excludes it (Linux has no SwiftUI), and builds and tests Database/AppDatabase.swift instead.

@main
struct PeopleApp: App {
  var body: some Scene {
    WindowGroup {
      LaunchView()
    }
  }
}

/// Shows a spinner while the database launches, then the people, or what went wrong.
struct LaunchView: View {
  enum Launch {
    case opening
    case open(AppDatabase)
    case failed(String)
  }

  @State private var launch = Launch.opening

  var body: some View {
    Group {
      switch launch {
      case .opening:
        ProgressView("Opening the database…")
      case .open(let database):
        PeopleList(database: database)
      case .failed(let message):
        Text(message).padding()
      }
    }
    // example: xcode-app-task
    .task {
      // The setup runs off the main thread (`DatabaseSetup.open() async`); the view's state
      // is set back on the main actor. Leaving the view cancels the task, and the setup with it.
      do {
        launch = .open(try await AppDatabase.open())
      } catch is CancellationError {
        return
      } catch let error as any StrataError {
        // What is wrong, and what to do: a migrations folder bundled flat, for one, is told
        // to be a folder reference.
        launch = .failed(error.message + "\n\n" + error.help)
      } catch {
        launch = .failed(error.localizedDescription)
      }
    }
    // end example
  }
}

/// The people, and a button that adds one.
struct PeopleList: View {
  let database: AppDatabase
  @State private var people: [Person] = []

  var body: some View {
    List(people, id: \.self) { person in
      LabeledContent(person.name ?? "—", value: person.age.map(String.init) ?? "")
    }
    .toolbar {
      Button("Add") {
        Task {
          try await database.add(Person(name: "New person", age: nil))
          people = try await database.people()
        }
      }
    }
    .task {
      people = (try? await database.people()) ?? []
    }
  }
}
