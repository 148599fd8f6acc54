package query

import (
	"database/sql"

	_ "modernc.org/sqlite"
)

// SQLiteVersion is the version of the SQLite library sdl is built with.
func SQLiteVersion() string {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		return "unknown"
	}
	defer db.Close()
	var v string
	if err := db.QueryRow("SELECT sqlite_version()").Scan(&v); err != nil {
		return "unknown"
	}
	return v
}
