package main

import (
	"encoding/json"

	"github.com/duo-labs/webauthn/protocol"
	"github.com/duo-labs/webauthn/webauthn"
)

// The 2022 library marshals the user handle and credential ids ([]byte) as standard, padded base64, which is not
// what WebAuthn Level 3's parseCreationOptionsFromJSON() and our clients read. These shapes carry the library's
// options with every binary value as unpadded base64url, the form our API answers with.

type userEntityJSON struct {
	ID          protocol.URLEncodedBase64 `json:"id"`
	Name        string                    `json:"name"`
	DisplayName string                    `json:"displayName"`
}

type descriptorJSON struct {
	ID         protocol.URLEncodedBase64 `json:"id"`
	Type       protocol.CredentialType   `json:"type"`
	Transports []string                  `json:"transports,omitempty"`
}

type creationOptionsJSON struct {
	RP                     protocol.RelyingPartyEntity     `json:"rp"`
	User                   userEntityJSON                  `json:"user"`
	Challenge              protocol.URLEncodedBase64       `json:"challenge"`
	PubKeyCredParams       []protocol.CredentialParameter  `json:"pubKeyCredParams"`
	Timeout                int                             `json:"timeout,omitempty"`
	ExcludeCredentials     []descriptorJSON                `json:"excludeCredentials"`
	AuthenticatorSelection protocol.AuthenticatorSelection `json:"authenticatorSelection"`
	Attestation            protocol.ConveyancePreference   `json:"attestation,omitempty"`
}

type requestOptionsJSON struct {
	Challenge        protocol.URLEncodedBase64            `json:"challenge"`
	Timeout          int                                  `json:"timeout,omitempty"`
	RPID             string                               `json:"rpId"`
	AllowCredentials []descriptorJSON                     `json:"allowCredentials,omitempty"`
	UserVerification protocol.UserVerificationRequirement `json:"userVerification,omitempty"`
}

// publicKeyOptions is the `{"publicKey": …}` wrapper our options endpoints answer with.
type publicKeyOptions struct {
	PublicKey any `json:"publicKey"`
}

// descriptors lists stored credentials for excludeCredentials or allowCredentials, with their transports.
func descriptors(credentials []credentialRow) []descriptorJSON {
	list := make([]descriptorJSON, 0, len(credentials))
	for _, c := range credentials {
		var transports []string
		_ = json.Unmarshal([]byte(c.transports), &transports)
		list = append(list, descriptorJSON{ID: c.id, Type: protocol.PublicKeyCredentialType, Transports: transports})
	}
	return list
}

func creationOptionsLevel3(o protocol.PublicKeyCredentialCreationOptions, exclude []credentialRow) creationOptionsJSON {
	return creationOptionsJSON{
		RP:                     o.RelyingParty,
		User:                   userEntityJSON{ID: o.User.ID, Name: o.User.Name, DisplayName: o.User.DisplayName},
		Challenge:              protocol.URLEncodedBase64(o.Challenge),
		PubKeyCredParams:       o.Parameters,
		Timeout:                o.Timeout,
		ExcludeCredentials:     descriptors(exclude),
		AuthenticatorSelection: o.AuthenticatorSelection,
		Attestation:            o.Attestation,
	}
}

func requestOptionsLevel3(o protocol.PublicKeyCredentialRequestOptions, allow []credentialRow) requestOptionsJSON {
	return requestOptionsJSON{
		Challenge:        protocol.URLEncodedBase64(o.Challenge),
		Timeout:          o.Timeout,
		RPID:             o.RelyingPartyID,
		AllowCredentials: descriptors(allow),
		UserVerification: o.UserVerification,
	}
}

// peerUser is a user as the library sees one: the stored row and the credentials it may use.
type peerUser struct {
	row         userRow
	credentials []credentialRow
}

func (u peerUser) WebAuthnID() []byte          { return u.row.handle }
func (u peerUser) WebAuthnName() string        { return u.row.name }
func (u peerUser) WebAuthnDisplayName() string { return u.row.displayName }
func (u peerUser) WebAuthnIcon() string        { return "" }

func (u peerUser) WebAuthnCredentials() []webauthn.Credential {
	list := make([]webauthn.Credential, 0, len(u.credentials))
	for _, c := range u.credentials {
		list = append(list, webauthn.Credential{
			ID:              c.id,
			PublicKey:       c.publicKey,
			AttestationType: c.attestationFormat,
			Authenticator:   webauthn.Authenticator{SignCount: c.signCount},
		})
	}
	return list
}
