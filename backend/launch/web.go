package launch

import (
	"fmt"
	"math/rand/v2"
	"net/http"

	"github.com/tack-agent/tack/backend/config"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/tools/web"
)

// Web backends named in [web].
const (
	webDeepSeek = "deepseek"
	webLocal    = "local"
	webOff      = "off"
)

// webConfig picks the backends of web_search and web_fetch: DeepSeek's
// Search and Fetch APIs with the DeepSeek key when the session talks to
// DeepSeek (or [web] asks for them), else no search and a local fetch.
func webConfig(w config.Web, provider string, providers llm.Providers, env func(string) string, hc *http.Client, version string) (web.Config, error) {
	search, fetch := webOff, webLocal
	if provider == llm.ProviderDeepSeek || provider == "" {
		search, fetch = webDeepSeek, webDeepSeek
	}
	search, fetch = first(w.Search, search), first(w.Fetch, fetch)
	if search != webDeepSeek && search != webOff {
		return web.Config{}, fmt.Errorf(`config [web] search = %q: use "deepseek" or "off"`, search)
	}
	if fetch != webDeepSeek && fetch != webLocal {
		return web.Config{}, fmt.Errorf(`config [web] fetch = %q: use "deepseek" or "local"`, fetch)
	}
	local := &web.Local{Version: version}
	if hc != nil {
		local.Transport = hc.Transport
	}
	cfg := web.Config{Fetch: local, Deny: w.DenyDomains}
	if search != webDeepSeek && fetch != webDeepSeek {
		return cfg, nil
	}
	deepseek, err := providers.Find(llm.ProviderDeepSeek)
	var e llm.Endpoint
	if err == nil {
		e, err = deepseek.Resolve(env)
	}
	if err != nil {
		return web.Config{}, fmt.Errorf("config [web] uses DeepSeek's web APIs, which need a DeepSeek key: set DEEPSEEK_API_KEY, or set [web] search = \"off\" and fetch = \"local\"")
	}
	ds := &web.DeepSeek{BaseURL: e.BaseURL, APIKey: e.APIKey, HTTP: hc, Retry: llm.DefaultRetryPolicy(rand.Float64), Version: version}
	if search == webDeepSeek {
		cfg.Search = ds
	}
	if fetch == webDeepSeek {
		cfg.Fetch, cfg.Local = ds, local
	}
	return cfg, nil
}
