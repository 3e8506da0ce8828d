package main

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net/http"
	"strings"
	"time"

	"github.com/duo-labs/webauthn/webauthn"
)

// The lifetimes of swift-passkeys' defaults (`expiries` in its configuration), in seconds.
const (
	registrationLifetime   = 600
	authenticationLifetime = 300
	challengeLifetime      = 120
	resultTokenLifetime    = 60
	// The largest request body read: a credential with a long attestation fits many times over.
	maximumBody = 64 << 10
)

type server struct {
	store        *store
	relyingParty *webauthn.WebAuthn
	apiKeyHash   [32]byte
	now          func() time.Time
}

// request is what every handler gets: the HTTP request, its id (as in X-Request-Id and the audit log) and the
// bearer token it presented.
type request struct {
	*http.Request
	id     string
	bearer string
}

// apiError is an error the client is told about: a status, a stable code and a message, rendered as our API renders
// its errors (`{"error": {"code", "message", "retryable", "requestId"}}`).
type apiError struct {
	status  int
	code    string
	message string
}

func (e *apiError) Error() string { return e.code + ": " + e.message }

func failure(status int, code, message string) *apiError {
	return &apiError{status: status, code: code, message: message}
}

var (
	errUnauthenticated = failure(http.StatusUnauthorized, "UNAUTHENTICATED", "A valid bearer token is needed.")
	errInternal        = failure(http.StatusInternalServerError, "INTERNAL_ERROR", "The server failed; see its log.")
)

// A handler answers a request, given the id in its path, with a status and a JSON body, or an error.
type handler func(r *request, id string) (int, any, error)

// routes is the API subset the load generator uses, and /health.
func (s *server) routes() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/health" {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"status":"ok"}`)
			return
		}
		h, id := s.route(r.Method, r.URL.Path)
		s.serve(w, r, h, id)
	})
}

// route picks the handler of METHOD /v1/... and the path's id, if any.
func (s *server) route(method, path string) (handler, string) {
	if method != http.MethodPost {
		return nil, ""
	}
	parts := strings.Split(strings.TrimPrefix(path, "/v1/"), "/")
	switch {
	case len(parts) == 1 && parts[0] == "registrations":
		return func(r *request, _ string) (int, any, error) { return s.createRegistration(r) }, ""
	case len(parts) == 1 && parts[0] == "authentications":
		return func(r *request, _ string) (int, any, error) { return s.createAuthentication(r) }, ""
	case len(parts) == 3 && parts[0] == "authentications" && parts[2] == "redeem":
		return s.redeemAuthentication, parts[1]
	case len(parts) == 4 && parts[0] == "client" && parts[1] == "registrations" && parts[3] == "options":
		return s.registrationOptions, parts[2]
	case len(parts) == 4 && parts[0] == "client" && parts[1] == "registrations" && parts[3] == "complete":
		return s.completeRegistration, parts[2]
	case len(parts) == 4 && parts[0] == "client" && parts[1] == "authentications" && parts[3] == "options":
		return s.authenticationOptions, parts[2]
	case len(parts) == 4 && parts[0] == "client" && parts[1] == "authentications" && parts[3] == "complete":
		return s.completeAuthentication, parts[2]
	}
	return nil, ""
}

func (s *server) serve(w http.ResponseWriter, r *http.Request, h handler, id string) {
	started := time.Now()
	req := &request{Request: r, id: "req_" + encode(randomBytes(16))}
	w.Header().Set("X-Request-Id", req.id)
	if authorization := r.Header.Get("Authorization"); strings.HasPrefix(authorization, "Bearer ") {
		req.bearer = strings.TrimPrefix(authorization, "Bearer ")
	}
	r.Body = http.MaxBytesReader(w, r.Body, maximumBody)
	var (
		status int
		body   any
		err    error
	)
	if h == nil {
		err = failure(http.StatusNotFound, "NOT_FOUND", "No such route in this peer.")
	} else {
		status, body, err = h(req, id)
	}
	w.Header().Set("Content-Type", "application/json")
	if err != nil {
		var known *apiError
		if !errors.As(err, &known) {
			log.Printf("request %s %s failed: %v", req.id, r.URL.Path, err)
			known = errInternal
		}
		status = known.status
		body = map[string]any{"error": map[string]any{
			"code": known.code, "message": known.message, "retryable": known.status >= 500, "requestId": req.id,
		}}
	}
	w.WriteHeader(status)
	if raw, ok := body.(json.RawMessage); ok {
		w.Write(raw)
	} else {
		json.NewEncoder(w).Encode(body)
	}
	// One line per request, as our server logs at its default level.
	log.Printf("%s %s %d %.2fms %s", r.Method, r.URL.Path, status,
		float64(time.Since(started).Microseconds())/1000, req.id)
}

// MARK: authorization

// requireAPIKey lets the backend's calls through: the presented key's SHA-256 against the configured key's.
func (s *server) requireAPIKey(r *request) error {
	presented := sha256.Sum256([]byte(r.bearer))
	if r.bearer == "" || subtle.ConstantTimeCompare(presented[:], s.apiKeyHash[:]) != 1 {
		return errUnauthenticated
	}
	return nil
}

// clientFlow is the flow of `kind` that the client token drives: the token's SHA-256 must be the stored hash, and
// the flow must not have expired. An unknown flow and a wrong token are both UNAUTHENTICATED.
func (s *server) clientFlow(r *request, id, kind string) (flowRow, error) {
	if r.bearer == "" || len(r.bearer) > 4096 || id == "" || len(id) > 2048 {
		return flowRow{}, errUnauthenticated
	}
	flow, found, err := s.store.flow(id)
	if err != nil {
		return flowRow{}, err
	}
	if !found || flow.kind != kind || !holds(r.bearer, flow.clientTokenHash) {
		return flowRow{}, errUnauthenticated
	}
	if !flow.expiresAt.After(s.now()) {
		if kind == "registration" {
			return flowRow{}, failure(http.StatusGone, "REGISTRATION_ATTEMPT_EXPIRED", "The attempt expired.")
		}
		return flowRow{}, failure(http.StatusGone, "INVALID_OR_EXPIRED_SESSION", "The session expired.")
	}
	return flow, nil
}

// MARK: secrets

func randomBytes(count int) []byte {
	bytes := make([]byte, count)
	if _, err := rand.Read(bytes); err != nil {
		panic(err) // the system's generator does not fail
	}
	return bytes
}

func encode(bytes []byte) string { return base64.RawURLEncoding.EncodeToString(bytes) }

func hash(text string) []byte {
	sum := sha256.Sum256([]byte(text))
	return sum[:]
}

// token is a bearer token: a prefix naming its kind, then 32 random bytes. Only its hash is stored.
func token(prefix string) string { return prefix + encode(randomBytes(32)) }

// identifier is a record's id: a prefix, then 16 random bytes.
func identifier(prefix string) string { return prefix + encode(randomBytes(16)) }

func holds(presented string, storedHash []byte) bool {
	return subtle.ConstantTimeCompare(hash(presented), storedHash) == 1
}

// MARK: helpers

func decodeBody(r *request, into any) error {
	decoder := json.NewDecoder(r.Body)
	if err := decoder.Decode(into); err != nil {
		return failure(http.StatusBadRequest, "INVALID_REQUEST", "The body is not the expected JSON: "+err.Error())
	}
	return nil
}

// audit appends an event to the audit log in a transaction of its own, after the change it records was committed
// (as swift-passkeys does); a failure is logged and does not fail the request.
func (s *server) audit(r *request, actor, action, userID, subject string, details map[string]string) {
	text, _ := json.Marshal(details)
	err := s.store.appendAudit(auditEvent{
		actor: actor, action: action, userID: userID, subject: subject, requestID: r.id, details: string(text),
	})
	if err != nil {
		log.Printf("audit event %s could not be stored: %v", action, err)
	}
}

func timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func validText(text string, maximum int) bool {
	trimmed := strings.TrimSpace(text)
	return trimmed != "" && len(trimmed) <= maximum && !strings.ContainsAny(trimmed, "\x00\r\n\t")
}

// missing is the error of a row that should be there: the store's, or an internal error naming it.
func missing(err error, what string) error {
	if err != nil {
		return err
	}
	return errors.New(what + " is missing")
}
