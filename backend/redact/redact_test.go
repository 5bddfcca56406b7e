package redact

import "testing"

const testKey = "sk-live-4f9a8c2e7b1d"

func TestEndpointText(t *testing.T) {
	r := Endpoint(testKey, "https://u:hunter2hunter2@gw.example/v1?key=kkkk1111kkkk&model=x")
	for in, want := range map[string]string{
		"key " + testKey + " rejected":                  "key [redacted] rejected",
		"Authorization: Bearer eyJhbGciOi.J9x0":         "Authorization: Bearer [redacted]",
		"Bearer authentication failed":                  "Bearer authentication failed",
		"dial https://u:hunter2hunter2@gw.example/v1":   "dial https://u:[redacted]@gw.example/v1",
		"GET /v1?key=kkkk1111kkkk&model=x":              "GET /v1?key=[redacted]&model=x",
		"the model x answered":                          "the model x answered",
		"short keys like ollama are not secrets: none ": "short keys like ollama are not secrets: none ",
	} {
		if got := r.Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Endpoint("ollama", "").Text("ollama refused"); got != "ollama refused" {
		t.Errorf("a placeholder key is not a secret: got %q", got)
	}
}

func TestHeaderValuesAndTheirCredentials(t *testing.T) {
	var r Redactor
	r.AddHeader("Basic dXNlcjpwYXNzd29yZA==")
	r.AddHeader("ghp_abcdefghijklmnop")
	for in, want := range map[string]string{
		"sent Authorization: Basic dXNlcjpwYXNzd29yZA==": "sent Authorization: [redacted]",
		"token dXNlcjpwYXNzd29yZA== refused":             "token [redacted] refused",
		"X-Api-Key ghp_abcdefghijklmnop is not valid":    "X-Api-Key [redacted] is not valid",
	} {
		if got := r.Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIsSecretName(t *testing.T) {
	for name, want := range map[string]bool{
		"GITHUB_PERSONAL_ACCESS_TOKEN": true,
		"OPENAI_API_KEY":               true,
		"api-key":                      true,
		"X-Api-Key":                    true,
		"DB_PASSWORD":                  true,
		"CLIENT_SECRET":                true,
		"key":                          true,
		"sig":                          true,
		"NODE_ENV":                     false,
		"DEBUG":                        false,
		"PATH":                         false,
		"monkey":                       false,
		"model":                        false,
	} {
		if got := IsSecretName(name); got != want {
			t.Errorf("IsSecretName(%q) = %v, want %v", name, got, want)
		}
	}
}
