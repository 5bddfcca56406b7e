package llm

import (
	"cmp"
	"context"
	"net/http"
	"sync"
	"time"
)

// RouterConfig configures a Router.
type RouterConfig struct {
	Providers Providers
	// Default serves bare model ids.
	Default string
	// Env looks up base URLs and keys.
	Env     func(string) string
	Catalog *Catalog

	HTTPClient  *http.Client
	Version     string
	IdleTimeout time.Duration
	Now         func() time.Time
}

// Router is the Provider of a session that may use several servers: it
// sends each request to the provider its model ref names
// ("openrouter/deepseek/deepseek-chat"), a bare id the catalog knows to
// its provider, and any other bare id to the default provider. A provider's client is made on its first request, so a
// provider without a key fails only when it is used.
type Router struct {
	cfg RouterConfig

	mu      sync.Mutex
	clients map[string]*Client
}

// NewRouter returns a Router; every provider becomes one model refs may
// start with.
func NewRouter(cfg RouterConfig) *Router {
	if cfg.Catalog == nil {
		cfg.Catalog = NewCatalog()
	}
	for _, p := range cfg.Providers {
		cfg.Catalog.AddProvider(p.Name)
	}
	return &Router{cfg: cfg, clients: map[string]*Client{}}
}

// Stream sends req to its model's provider, with the provider prefix cut
// from the model.
func (r *Router) Stream(ctx context.Context, req Request) (Stream, error) {
	provider, id := r.cfg.Catalog.Split(req.Model)
	if provider == "" {
		provider = r.cfg.Default
		if m, ok := r.cfg.Catalog.LookupIn("", id); ok && m.Provider != "" {
			provider = m.Provider
		}
	}
	c, err := r.client(provider)
	if err != nil {
		return nil, err
	}
	req.Model = id
	return c.Stream(ctx, req)
}

// Endpoint resolves the provider called name ("" for the default): its
// base URL, key and profile, for callers that reach a provider's other
// endpoints (DeepSeek's search and fetch).
func (r *Router) Endpoint(name string) (Endpoint, error) {
	if name == "" {
		name = r.cfg.Default
	}
	p, err := r.cfg.Providers.Find(name)
	if err != nil {
		return Endpoint{}, &Error{Kind: ErrInvalidRequest, Err: err, Message: err.Error()}
	}
	e, err := p.Resolve(r.cfg.Env)
	if err != nil {
		if le, ok := err.(*Error); ok {
			return Endpoint{}, le
		}
		return Endpoint{}, &Error{Kind: ErrInvalidRequest, Err: err, Message: err.Error()}
	}
	return e, nil
}

func (r *Router) client(name string) (*Client, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if c, ok := r.clients[name]; ok {
		return c, nil
	}
	e, err := r.Endpoint(name)
	if err != nil {
		return nil, err
	}
	c := NewClient(ClientConfig{
		BaseURL: e.BaseURL, APIKey: e.APIKey, Profile: e.Profile,
		KeyEnv:  cmp.Or(e.KeyEnv, "a key_env for provider "+e.Name+" in config.toml"),
		Catalog: r.cfg.Catalog, Provider: e.Name,
		HTTPClient: r.cfg.HTTPClient, Version: r.cfg.Version, IdleTimeout: r.cfg.IdleTimeout, Now: r.cfg.Now,
	})
	r.clients[name] = c
	return c, nil
}

var _ Provider = (*Router)(nil)
