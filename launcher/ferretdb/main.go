// Command ferretdb runs an embedded FerretDB (SQLite storage) for the local stack: one JSON
// ready line on stdout once it listens, errors on stderr, clean stop on SIGTERM/SIGINT.
//
// It listens on a Unix socket in its data directory, which it keeps to its own user (0700): FerretDB
// has no authentication, and on loopback TCP any user of the machine could read every server seed
// and write ledger entries, or take the port while the database restarts.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	data := flag.String("data", "data/db", "directory for the SQLite files and the socket (created if missing)")
	flag.Parse()

	// Error, not warn: FerretDB logs every failed command (with full message dumps) and every
	// client disconnect at warn, e.g. the driver's endSessions, which v1 does not implement.
	logger := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	fail := func(msg string, err error) {
		logger.Error(msg, "error", err)
		os.Exit(1)
	}

	dir, err := filepath.Abs(*data)
	if err != nil {
		fail("bad data directory", err)
	}
	if err = os.MkdirAll(dir, 0o700); err != nil {
		fail("cannot create data directory", err)
	}
	// MkdirAll leaves an existing directory as it was.
	if err = os.Chmod(dir, 0o700); err != nil {
		fail("cannot make the data directory private", err)
	}
	socket := filepath.Join(dir, "ferretdb.sock")
	// Left by a database killed before it could remove it; this directory is this database's alone.
	if err = os.Remove(socket); err != nil && !os.IsNotExist(err) {
		fail("cannot remove the old socket", err)
	}

	// FerretDB wants a file: URI naming a directory, with a trailing slash.
	db, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{Unix: socket},
		Handler:   "sqlite",
		SQLiteURL: "file:" + filepath.ToSlash(dir) + "/",
		Logger:    logger,
	})
	if err != nil {
		fail("cannot start FerretDB", err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	go stopWhenOrphaned(stop)

	// New has already bound the socket: clients can connect.
	ready, _ := json.Marshal(map[string]string{"socket": socket})
	os.Stdout.Write(append(ready, '\n'))

	if err = db.Run(ctx); err != nil {
		fail("FerretDB stopped", err)
	}
}

// stopWhenOrphaned stops the server if the process that started it dies without stopping it
// (for instance a SIGKILLed launcher), so no database is left running behind.
func stopWhenOrphaned(stop context.CancelFunc) {
	parent := os.Getppid()
	for range time.Tick(time.Second) {
		if os.Getppid() != parent {
			stop()
			return
		}
	}
}
