//go:build race

package agent_test

// longMessages is smaller under the race detector, which slows logging
// and folding tenfold; 10,000 messages are tested without it.
const longMessages = 2_000
