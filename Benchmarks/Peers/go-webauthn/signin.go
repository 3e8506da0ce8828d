package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/duo-labs/webauthn/protocol"
	"github.com/duo-labs/webauthn/webauthn"
)

// signInResult is what redeeming returns (our AuthenticationResult, standard mode), stored with the flow when the
// sign-in completes.
type signInResult struct {
	UserID         string `json:"userId"`
	CredentialID   string `json:"credentialId"`
	UserVerified   bool   `json:"userVerified"`
	BackupEligible bool   `json:"backupEligible"`
	BackupState    bool   `json:"backupState"`
	Mode           string `json:"mode"`
	CompletedAt    string `json:"completedAt"`
	Assurance      string `json:"assurance"`
}

// POST /v1/authentications: a sign-in session for a user who has an active passkey.
func (s *server) createAuthentication(r *request) (int, any, error) {
	if err := s.requireAPIKey(r); err != nil {
		return 0, nil, err
	}
	var body struct {
		UserID string `json:"userId"`
	}
	if err := decodeBody(r, &body); err != nil {
		return 0, nil, err
	}
	if !validText(body.UserID, 128) {
		return 0, nil, failure(http.StatusBadRequest, "INVALID_REQUEST", "This peer signs in a given userId only.")
	}
	if _, found, err := s.store.user(body.UserID); err != nil || !found {
		if err != nil {
			return 0, nil, err
		}
		return 0, nil, failure(http.StatusNotFound, "NOT_FOUND", "No user "+body.UserID+".")
	}
	credentials, err := s.store.activeCredentials(body.UserID)
	if err != nil {
		return 0, nil, err
	}
	if len(credentials) == 0 {
		return 0, nil, failure(http.StatusConflict, "NO_ACTIVE_CREDENTIALS", "The user has no active passkey.")
	}
	clientToken := token("pkc_")
	flow := flowRow{
		id:              identifier("auth_"),
		kind:            "authentication",
		userID:          body.UserID,
		clientTokenHash: hash(clientToken),
		expiresAt:       s.now().Add(authenticationLifetime * time.Second),
		payload:         []byte(`{"mode":"standard"}`),
	}
	if err := s.store.createFlow(flow); err != nil {
		return 0, nil, err
	}
	s.audit(r, "api-key", "authentication.created", body.UserID, flow.id, map[string]string{
		"mode": "standard", "transactionDigest": "none", "identityVerification": "false",
	})
	return http.StatusCreated, map[string]any{
		"biometricPasskeySessionId": flow.id, "clientToken": clientToken, "expiresAt": timestamp(flow.expiresAt),
	}, nil
}

// POST /v1/client/authentications/{id}/options: a new challenge, offering the user's active passkeys.
func (s *server) authenticationOptions(r *request, id string) (int, any, error) {
	flow, err := s.clientFlow(r, id, "authentication")
	if err != nil {
		return 0, nil, err
	}
	credentials, err := s.store.activeCredentials(flow.userID)
	if err != nil {
		return 0, nil, err
	}
	if len(credentials) == 0 {
		return 0, nil, failure(http.StatusConflict, "NO_ACTIVE_CREDENTIALS", "The user has no active passkey.")
	}
	assertion, _, err := s.relyingParty.BeginLogin(peerUser{row: userRow{id: flow.userID}, credentials: credentials},
		webauthn.WithUserVerification(selection.UserVerification))
	if err != nil {
		return 0, nil, err
	}
	issued, err := s.store.issueChallenge(flow.id, hash(string(assertion.Response.Challenge)),
		s.now().Add(challengeLifetime*time.Second))
	if err != nil {
		return 0, nil, err
	}
	if !issued {
		return 0, nil, failure(http.StatusGone, "INVALID_OR_EXPIRED_SESSION", "The session is complete already.")
	}
	return http.StatusOK, publicKeyOptions{PublicKey: requestOptionsLevel3(assertion.Response, credentials)}, nil
}

// POST /v1/client/authentications/{id}/complete: WebAuthn §7.2 by the library, then the new counter and the result
// recorded, and a result token for the backend.
func (s *server) completeAuthentication(r *request, id string) (int, any, error) {
	flow, err := s.clientFlow(r, id, "authentication")
	if err != nil {
		return 0, nil, err
	}
	var body struct {
		Credential json.RawMessage `json:"credential"`
	}
	if err := decodeBody(r, &body); err != nil {
		return 0, nil, err
	}
	parsed, err := protocol.ParseCredentialRequestResponseBody(bytes.NewReader(body.Credential))
	if err != nil {
		return 0, nil, failure(http.StatusBadRequest, "INVALID_REQUEST", "The credential is malformed: "+describe(err))
	}
	challenge, err := s.consumeChallenge(flow.id, parsed.Response.CollectedClientData.Challenge)
	if err != nil {
		return 0, nil, err
	}
	stored, handle, found, err := s.store.credentialWithOwner(parsed.RawID)
	if err != nil {
		return 0, nil, err
	}
	if !found || stored.status != "active" || stored.userID != flow.userID {
		return 0, nil, s.signInFailed(r, flow, http.StatusBadRequest, "CREDENTIAL_NOT_FOUND",
			"The credential is not an active passkey of this session's user.")
	}
	user := peerUser{row: userRow{id: stored.userID, handle: handle}, credentials: []credentialRow{stored}}
	// As for registration, the challenge is the one just consumed by its hash; the library checks the rest: type,
	// origin, RP ID hash, user presence, the user handle, the signature with the stored key, and the counter.
	session := webauthn.SessionData{
		Challenge:            challenge,
		UserID:               handle,
		AllowedCredentialIDs: [][]byte{stored.id},
		UserVerification:     selection.UserVerification,
	}
	verified, err := s.relyingParty.ValidateLogin(user, session, parsed)
	if err != nil {
		return 0, nil, s.signInFailed(r, flow, http.StatusBadRequest, "ASSERTION_INVALID", describe(err))
	}
	if verified.Authenticator.CloneWarning {
		s.audit(r, "client", "credential.clone_suspected", stored.userID, encode(stored.id), map[string]string{
			"stored": strconv.FormatUint(uint64(stored.signCount), 10),
		})
		return 0, nil, s.signInFailed(r, flow, http.StatusBadRequest, "CREDENTIAL_CLONE_SUSPECTED",
			"The signature counter did not increase.")
	}
	flags := byte(parsed.Response.AuthenticatorData.Flags)
	if (flags&flagBackupEligible != 0) != stored.backupEligible {
		return 0, nil, s.signInFailed(r, flow, http.StatusBadRequest, "ASSERTION_INVALID",
			"The credential's backup eligibility changed.")
	}
	userVerified := parsed.Response.AuthenticatorData.Flags.UserVerified()
	result := signInResult{
		UserID:         stored.userID,
		CredentialID:   encode(stored.id),
		UserVerified:   userVerified,
		BackupEligible: stored.backupEligible,
		BackupState:    flags&flagBackupState != 0,
		Mode:           "standard",
		CompletedAt:    timestamp(s.now()),
		Assurance:      "passkey",
	}
	if userVerified {
		result.Assurance = "passkey+uv"
	}
	payload, _ := json.Marshal(result)
	resultToken := token("pkr_")
	expiresAt := s.now().Add(resultTokenLifetime * time.Second)
	err = s.store.recordAuthentication(stored, verified.Authenticator.SignCount, result.BackupState, flow.id,
		hash(resultToken), expiresAt, payload)
	if errors.Is(err, errNotRecorded) {
		return 0, nil, s.signInFailed(r, flow, http.StatusConflict, "CREDENTIAL_USE_CONFLICT",
			"Another sign-in with this passkey was recorded first, or it was revoked.")
	}
	if err != nil {
		return 0, nil, err
	}
	s.audit(r, "client", "authentication.completed", stored.userID, result.CredentialID, map[string]string{
		"flow": flow.id, "mode": "standard", "userVerified": strconv.FormatBool(userVerified),
		"signCountRegressed": "false", "assurance": result.Assurance, "transactionDigest": "none", "handoff": "none",
	})
	return http.StatusOK, map[string]any{"resultToken": resultToken, "expiresAt": timestamp(expiresAt)}, nil
}

// signInFailed marks the flow failed (new options may be asked for) and audits the refusal.
func (s *server) signInFailed(r *request, flow flowRow, status int, code, message string) error {
	if err := s.store.markFailed(flow.id); err != nil {
		return err
	}
	s.audit(r, "client", "authentication.failed", flow.userID, flow.id, map[string]string{"code": code})
	return failure(status, code, message)
}

// POST /v1/authentications/{id}/redeem: the backend spends the result token, once, for the verified sign-in.
func (s *server) redeemAuthentication(r *request, id string) (int, any, error) {
	if err := s.requireAPIKey(r); err != nil {
		return 0, nil, err
	}
	var body struct {
		ResultToken string `json:"resultToken"`
	}
	if err := decodeBody(r, &body); err != nil {
		return 0, nil, err
	}
	payload, redeemed, err := s.store.redeem(id, hash(body.ResultToken))
	if err != nil {
		return 0, nil, err
	}
	if !redeemed {
		return 0, nil, s.whyNotRedeemed(id)
	}
	var result signInResult
	if err := json.Unmarshal(payload, &result); err != nil {
		return 0, nil, err
	}
	// Checked after the result is spent, as swift-passkeys does: a passkey revoked meanwhile voids the sign-in.
	credentialID, err := base64.RawURLEncoding.DecodeString(result.CredentialID)
	if err != nil {
		return 0, nil, err
	}
	status, err := s.store.credentialStatus(credentialID)
	if err != nil {
		return 0, nil, err
	}
	if status != "active" {
		s.audit(r, "api-key", "authentication.voided", result.UserID, id, map[string]string{})
		return 0, nil, failure(http.StatusForbidden, "CREDENTIAL_INACTIVE",
			"The passkey was revoked since the sign-in.")
	}
	s.audit(r, "api-key", "authentication.redeemed", result.UserID, id, map[string]string{})
	return http.StatusOK, json.RawMessage(payload), nil
}

// whyNotRedeemed tells apart the reasons a redemption found nothing to spend (only on that path).
func (s *server) whyNotRedeemed(id string) error {
	flow, found, err := s.store.flow(id)
	switch {
	case err != nil:
		return err
	case !found || flow.kind != "authentication":
		return failure(http.StatusNotFound, "NOT_FOUND", "No authentication session "+id+".")
	case flow.status == "redeemed":
		return failure(http.StatusConflict, "RESULT_ALREADY_REDEEMED", "The result was redeemed before.")
	case flow.status == "completed":
		return failure(http.StatusForbidden, "INVALID_RESULT_TOKEN",
			"The result token is not this session's, or expired.")
	default:
		return failure(http.StatusConflict, "AUTHENTICATION_NOT_COMPLETED", "The user has not completed this sign-in.")
	}
}
