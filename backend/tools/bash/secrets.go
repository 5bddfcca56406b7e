package bash

import "strings"

// WithoutProviderSecrets is environ without the model providers'
// credentials, for the other programs tack starts on the user's behalf
// (MCP servers, hooks); a program that needs one gets it from its own
// configuration.
func WithoutProviderSecrets(environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, e := range environ {
		if k, _, _ := strings.Cut(e, "="); !providerSecret(k) {
			out = append(out, e)
		}
	}
	return out
}
