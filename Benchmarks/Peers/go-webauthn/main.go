// Command go-webauthn-peer is a benchmark peer for swift-passkeys: a small relying-party server on the 2022
// duo-labs/webauthn library (the predecessor of go-webauthn) and SQLite, answering the part of our API that
// Benchmarks/http-load.sh drives. See README.md for what it does and, as important, what it does not do.
//
//	go-webauthn-peer -port 18080 -database peer.sqlite -api-key KEY
package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/duo-labs/webauthn/webauthn"
)

func main() {
	port := flag.Int("port", 8080, "the TCP port to listen on, on 127.0.0.1")
	database := flag.String("database", "", "the SQLite file (made when missing)")
	apiKey := flag.String("api-key", os.Getenv("PASSKEYS_API_KEY"), "the backend API key (default $PASSKEYS_API_KEY)")
	rpID := flag.String("rp-id", "localhost", "the relying party ID")
	origin := flag.String("origin", "", "the origin clients report (default http://localhost:PORT)")
	synchronous := flag.String("synchronous", "normal", "SQLite's synchronous setting: normal or full")
	flag.Parse()
	if *database == "" || *apiKey == "" {
		fmt.Fprintln(os.Stderr, "go-webauthn-peer: -database and -api-key are needed (see -help)")
		os.Exit(2)
	}
	if *synchronous != "normal" && *synchronous != "full" {
		fmt.Fprintln(os.Stderr, "go-webauthn-peer: -synchronous is normal or full")
		os.Exit(2)
	}
	if *origin == "" {
		*origin = fmt.Sprintf("http://localhost:%d", *port)
	}

	relyingParty, err := webauthn.New(&webauthn.Config{
		RPDisplayName: "go-webauthn peer",
		RPID:          *rpID,
		RPOrigin:      *origin,
		Timeout:       challengeLifetime * 1000,
	})
	if err != nil {
		log.Fatalf("go-webauthn-peer: %v", err)
	}
	store, err := openStore(*database, *synchronous)
	if err != nil {
		log.Fatalf("go-webauthn-peer: %v", err)
	}
	defer store.close()

	api := &server{
		store:        store,
		relyingParty: relyingParty,
		apiKeyHash:   sha256.Sum256([]byte(*apiKey)),
		now:          time.Now,
	}
	httpServer := &http.Server{
		Handler:           api.routes(),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
	}
	listener, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", *port))
	if err != nil {
		log.Fatalf("go-webauthn-peer: %v", err)
	}
	log.Printf("go-webauthn-peer: listening on http://127.0.0.1:%d (RP ID %s, origin %s, SQLite %s, synchronous=%s)",
		*port, *rpID, *origin, *database, *synchronous)

	// SIGTERM or SIGINT: stop accepting, let requests in flight finish, then close the database.
	stopped := make(chan os.Signal, 1)
	signal.Notify(stopped, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		<-stopped
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = httpServer.Shutdown(ctx)
	}()
	if err := httpServer.Serve(listener); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatalf("go-webauthn-peer: %v", err)
	}
	log.Print("go-webauthn-peer: stopped")
}
