//go:build !race

package agent_test

// longMessages is the length of the long session resume is tested at.
const longMessages = 10_000
