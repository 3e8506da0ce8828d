package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/duo-labs/webauthn/protocol"
	"github.com/duo-labs/webauthn/protocol/webauthncbor"
	"github.com/duo-labs/webauthn/protocol/webauthncose"
	"github.com/duo-labs/webauthn/webauthn"
	"github.com/google/uuid"
)

// The policy of swift-passkeys' defaults: ES256, EdDSA and RS256; a discoverable credential; user verification
// preferred (so not required).
var (
	allowedAlgorithms = []webauthncose.COSEAlgorithmIdentifier{
		webauthncose.AlgES256, webauthncose.AlgEdDSA, webauthncose.AlgRS256,
	}
	selection = protocol.AuthenticatorSelection{
		RequireResidentKey: protocol.ResidentKeyRequired(),
		ResidentKey:        protocol.ResidentKeyRequirementRequired,
		UserVerification:   protocol.VerificationPreferred,
	}
)

// Authenticator data flags the 2022 library does not name (WebAuthn Level 3 §6.1).
const (
	flagBackupEligible = 0x08
	flagBackupState    = 0x10
)

type registrationPayload struct {
	UserName     string `json:"userName"`
	DisplayName  string `json:"displayName"`
	CredentialID string `json:"credentialId,omitempty"`
}

// POST /v1/registrations: the user (made with a random 32-byte handle when new) and a registration attempt.
func (s *server) createRegistration(r *request) (int, any, error) {
	if err := s.requireAPIKey(r); err != nil {
		return 0, nil, err
	}
	var body struct {
		UserID      string  `json:"userId"`
		UserName    string  `json:"userName"`
		DisplayName *string `json:"displayName"`
	}
	if err := decodeBody(r, &body); err != nil {
		return 0, nil, err
	}
	displayName := body.UserName
	if body.DisplayName != nil {
		displayName = *body.DisplayName
	}
	if !validText(body.UserID, 128) || !validText(body.UserName, 256) || !validText(displayName, 256) {
		return 0, nil, failure(http.StatusBadRequest, "INVALID_REQUEST", "userId, userName or displayName is invalid.")
	}
	user, err := s.store.createUserIfAbsent(userRow{
		id: body.UserID, handle: randomBytes(32), name: body.UserName, displayName: displayName,
	})
	if err != nil {
		return 0, nil, err
	}
	clientToken := token("pkc_")
	payload, _ := json.Marshal(registrationPayload{UserName: body.UserName, DisplayName: displayName})
	flow := flowRow{
		id:              identifier("reg_"),
		kind:            "registration",
		userID:          user.id,
		clientTokenHash: hash(clientToken),
		expiresAt:       s.now().Add(registrationLifetime * time.Second),
		payload:         payload,
	}
	if err := s.store.createFlow(flow); err != nil {
		return 0, nil, err
	}
	s.audit(r, "api-key", "registration.created", user.id, flow.id, map[string]string{"finalize": "automatic"})
	return http.StatusCreated, map[string]any{
		"registrationAttemptId": flow.id, "clientToken": clientToken, "expiresAt": timestamp(flow.expiresAt),
	}, nil
}

// POST /v1/client/registrations/{id}/options: a new challenge, and the options the library builds around it.
func (s *server) registrationOptions(r *request, id string) (int, any, error) {
	flow, err := s.clientFlow(r, id, "registration")
	if err != nil {
		return 0, nil, err
	}
	var state registrationPayload
	if err := json.Unmarshal(flow.payload, &state); err != nil {
		return 0, nil, err
	}
	user, found, err := s.store.user(flow.userID)
	if err != nil || !found {
		return 0, nil, missing(err, "the attempt's user")
	}
	user.name, user.displayName = state.UserName, state.DisplayName
	existing, err := s.store.activeCredentials(user.id)
	if err != nil {
		return 0, nil, err
	}
	creation, _, err := s.relyingParty.BeginRegistration(peerUser{row: user},
		webauthn.WithAuthenticatorSelection(selection),
		func(options *protocol.PublicKeyCredentialCreationOptions) {
			options.Parameters = make([]protocol.CredentialParameter, 0, len(allowedAlgorithms))
			for _, algorithm := range allowedAlgorithms {
				options.Parameters = append(options.Parameters, protocol.CredentialParameter{
					Type: protocol.PublicKeyCredentialType, Algorithm: algorithm,
				})
			}
		})
	if err != nil {
		return 0, nil, err
	}
	issued, err := s.store.issueChallenge(flow.id, hash(string(creation.Response.Challenge)),
		s.now().Add(challengeLifetime*time.Second))
	if err != nil {
		return 0, nil, err
	}
	if !issued {
		return 0, nil, failure(http.StatusConflict, "REGISTRATION_ATTEMPT_CONFLICT", "The attempt is complete already.")
	}
	return http.StatusOK, publicKeyOptions{PublicKey: creationOptionsLevel3(creation.Response, existing)}, nil
}

// POST /v1/client/registrations/{id}/complete: WebAuthn §7.1 by the library, then the credential stored.
func (s *server) completeRegistration(r *request, id string) (int, any, error) {
	flow, err := s.clientFlow(r, id, "registration")
	if err != nil {
		return 0, nil, err
	}
	var body struct {
		Credential json.RawMessage `json:"credential"`
	}
	if err := decodeBody(r, &body); err != nil {
		return 0, nil, err
	}
	parsed, err := protocol.ParseCredentialCreationResponseBody(bytes.NewReader(body.Credential))
	if err != nil {
		return 0, nil, failure(http.StatusBadRequest, "INVALID_REQUEST", "The credential is malformed: "+describe(err))
	}
	// The library does not read the transports; the response has them.
	var extra struct {
		Response struct {
			Transports []string `json:"transports"`
		} `json:"response"`
	}
	_ = json.Unmarshal(body.Credential, &extra)

	challenge, err := s.consumeChallenge(flow.id, parsed.Response.CollectedClientData.Challenge)
	if err != nil {
		return 0, nil, err
	}
	user, found, err := s.store.user(flow.userID)
	if err != nil || !found {
		return 0, nil, missing(err, "the attempt's user")
	}
	// The session as the library wants it back. The challenge is the one just consumed, whose hash matched the
	// stored one: the library's own comparison then checks the client data's challenge against itself.
	session := webauthn.SessionData{
		Challenge:        challenge,
		UserID:           user.handle,
		UserVerification: selection.UserVerification,
	}
	credential, err := s.relyingParty.CreateCredential(peerUser{row: user}, session, parsed)
	if err != nil {
		return 0, nil, s.registrationFailed(r, flow, "ATTESTATION_INVALID", describe(err))
	}
	var key webauthncose.PublicKeyData
	if err := webauthncbor.Unmarshal(credential.PublicKey, &key); err != nil || !allowed(key.Algorithm) {
		return 0, nil, s.registrationFailed(r, flow, "ALGORITHM_NOT_ALLOWED",
			"The credential's algorithm is not allowed.")
	}
	flags := byte(parsed.Response.AttestationObject.AuthData.Flags)
	aaguid, err := uuid.FromBytes(credential.Authenticator.AAGUID)
	if err != nil {
		return 0, nil, s.registrationFailed(r, flow, "ATTESTATION_INVALID", "The AAGUID is not 16 bytes.")
	}
	transports, _ := json.Marshal(nonNil(extra.Response.Transports))
	row := credentialRow{
		id:                credential.ID,
		userID:            user.id,
		publicKey:         credential.PublicKey,
		algorithm:         key.Algorithm,
		signCount:         credential.Authenticator.SignCount,
		aaguid:            aaguid.String(),
		attestationFormat: credential.AttestationType,
		transports:        string(transports),
		backupEligible:    flags&flagBackupEligible != 0,
		backupState:       flags&flagBackupState != 0,
		userVerified:      parsed.Response.AttestationObject.AuthData.Flags.UserVerified(),
		name:              "Passkey",
	}
	var state registrationPayload
	_ = json.Unmarshal(flow.payload, &state)
	state.CredentialID = encode(row.id)
	payload, _ := json.Marshal(state)
	switch err := s.store.insertCredential(row, flow.id, payload); {
	case errors.Is(err, errConflict):
		return 0, nil, s.registrationFailed(r, flow, "CREDENTIAL_ALREADY_REGISTERED",
			"This credential is registered already.")
	case err != nil:
		return 0, nil, err
	}
	s.audit(r, "client", "registration.completed", user.id, state.CredentialID, map[string]string{
		"flow": flow.id, "name": row.name, "aaguid": row.aaguid, "attestationFormat": row.attestationFormat,
		"status": "active",
	})
	createdAt := timestamp(s.now())
	kind := "device-bound"
	if row.backupEligible {
		kind = "synced"
	}
	attestationType := "none"
	if row.attestationFormat != "none" {
		attestationType = "unknown" // the 2022 library verifies the statement but does not say which type it was
	}
	return http.StatusCreated, map[string]any{
		"credentialId": state.CredentialID, "userId": user.id, "name": row.name, "status": "active",
		"createdAt": createdAt, "aaguid": row.aaguid, "backupEligible": row.backupEligible,
		"backupState": row.backupState, "kind": kind, "transports": nonNil(extra.Response.Transports),
		"attestationFormat": row.attestationFormat, "attestationType": attestationType, "attestationTrusted": false,
		"algorithm": row.algorithm, "identityVerified": false,
	}, nil
}

// consumeChallenge spends the flow's challenge if the client data names it (by its hash), and returns it as the
// client data wrote it (unpadded base64url).
func (s *server) consumeChallenge(flowID, clientDataChallenge string) (string, error) {
	challenge, err := base64.RawURLEncoding.DecodeString(clientDataChallenge)
	if err != nil || len(challenge) == 0 {
		return "", failure(http.StatusBadRequest, "CHALLENGE_MISMATCH", "clientData.challenge is not this session's.")
	}
	consumed, err := s.store.consumeChallenge(flowID, hash(string(challenge)))
	if err != nil {
		return "", err
	}
	if !consumed {
		return "", failure(http.StatusBadRequest, "CHALLENGE_MISMATCH",
			"clientData.challenge is not the pending challenge (request options first, or again).")
	}
	return clientDataChallenge, nil
}

// registrationFailed marks the flow failed (new options may be asked for) and audits the refusal.
func (s *server) registrationFailed(r *request, flow flowRow, code, message string) error {
	if err := s.store.markFailed(flow.id); err != nil {
		return err
	}
	s.audit(r, "client", "registration.failed", flow.userID, flow.id, map[string]string{"code": code})
	status := http.StatusBadRequest
	if code == "CREDENTIAL_ALREADY_REGISTERED" {
		status = http.StatusConflict
	}
	return failure(status, code, message)
}

func allowed(algorithm int64) bool {
	for _, a := range allowedAlgorithms {
		if int64(a) == algorithm {
			return true
		}
	}
	return false
}

func nonNil(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}

// describe is the library's error with its details, which its Error() leaves out.
func describe(err error) string {
	var libraryError *protocol.Error
	if errors.As(err, &libraryError) && libraryError.DevInfo != "" {
		info := strings.Join(strings.Fields(libraryError.DevInfo), " ")
		return strings.TrimSpace(libraryError.Details) + " (" + info + ")"
	}
	if errors.As(err, &libraryError) {
		return strings.TrimSpace(libraryError.Details)
	}
	return err.Error()
}
