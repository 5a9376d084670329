import Foundation

/// The samples of docs/migrations.md's "Many databases" section.
extension DocSamples {
  static let fleet = [
    DocSample(
      name: "fleet-migrate",
      style: .console,
      fixture: { try writeTableMigrations(["a", "b"], into: $0) },
      setup: [
        "mkdir -p tenants/eu tenants/.trash",
        "strata migrate --database tenants/acme.sqlite3 --to 1 --quiet",
        "touch tenants/globex.sqlite3 tenants/eu/initech.sqlite3 tenants/.trash/old.sqlite3",
      ],
      commands: [
        "strata status --databases 'tenants/**/*.sqlite3'",
        "strata migrate --databases 'tenants/**/*.sqlite3'",
        "strata migrate --databases 'tenant/*.sqlite3'",
      ]
    )
  ]
}
