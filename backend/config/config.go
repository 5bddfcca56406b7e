// Package config resolves tack's settings: the home directory, the config
// file ($TACK_HOME/config.toml), stored credentials and the environment.
package config

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/BurntSushi/toml"

	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/privfile"
)

// File is the config file's content. Every field is optional.
type File struct {
	Provider       string `toml:"provider"`
	Model          string `toml:"model"`
	Effort         string `toml:"effort"`
	PermissionMode string `toml:"permission_mode"`
	Color          *bool  `toml:"color"`
	// Theme is the terminal's background: auto (detect it), dark or light.
	Theme string `toml:"theme"`
	// Notify announces a turn's end while the terminal is not focused:
	// bell (default), osc9 (a desktop notification) or off.
	Notify  string `toml:"notify"`
	Welcome string `toml:"welcome"`
	// BaseURL replaces the base URL of the provider in use; an explicit
	// variable (DEEPSEEK_BASE_URL, OPENAI_BASE_URL) still wins.
	BaseURL   string     `toml:"base_url"`
	Models    []Model    `toml:"models"`
	Providers []Provider `toml:"providers"`
	// CompactAt is the share of the context window at which the session is
	// compacted automatically (0.8 when unset).
	CompactAt float64 `toml:"compact_at"`
	Web       Web     `toml:"web"`
	// Checkpoints is [checkpoints]: what /rewind can restore.
	Checkpoints Checkpoints `toml:"checkpoints"`
	// Sandbox is [sandbox]: where commands may write and what they may not read.
	Sandbox Sandbox `toml:"sandbox"`
	// MCPServers are the [mcp_servers.NAME] tables that could be read.
	MCPServers map[string]MCPServer `toml:"-"`
	// Hooks are the [[hooks.EVENT]] tables that could be read.
	Hooks Hooks `toml:"-"`
	// Problems are the tables that were skipped, each with file and line:
	// tack starts without them and says so.
	Problems []string `toml:"-"`
}

// Sandbox configures the sandbox commands run in ([sandbox]). Paths may
// start with ~/.
type Sandbox struct {
	// Enabled false runs commands without a sandbox; tack then asks before
	// every command, as where no sandbox can be set up.
	Enabled *bool `toml:"enabled"`
	// Writable are directories commands may write besides the workspace
	// and the temp directory (build caches, say).
	Writable []string `toml:"writable"`
	// DenyRead are files and directories commands may not read, besides
	// $TACK_HOME.
	DenyRead []string `toml:"deny_read"`
	// Network lets sandboxed commands reach the network without asking.
	Network bool `toml:"network"`
}

// ExpandHome expands a leading ~/ of each path against home.
func ExpandHome(paths []string, home string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if rest, ok := strings.CutPrefix(p, "~/"); ok && home != "" {
			p = filepath.Join(home, rest)
		}
		out = append(out, p)
	}
	return out
}

// Web configures web_search and web_fetch ([web]).
type Web struct {
	// Search is the search backend: "deepseek" or "off". Unset, DeepSeek
	// sessions search with DeepSeek and other providers have no web_search.
	Search string `toml:"search"`
	// Fetch is how pages are read: "deepseek" (DeepSeek's Fetch API) or
	// "local" (tack's own HTTP client). Unset, DeepSeek sessions use
	// DeepSeek and others fetch locally.
	Fetch string `toml:"fetch"`
	// DenyDomains are domains web_fetch never reaches (subdomains included).
	DenyDomains []string `toml:"deny_domains"`
}

// Model extends or overrides the built-in model catalog.
type Model struct {
	ID             string  `toml:"id"`
	Provider       string  `toml:"provider"`
	Name           string  `toml:"name"`
	ContextWindow  int     `toml:"context_window"`
	MaxOutput      int     `toml:"max_output"`
	PriceCacheHit  float64 `toml:"price_cache_hit"`
	PriceCacheMiss float64 `toml:"price_cache_miss"`
	PriceOutput    float64 `toml:"price_output"`
	// Reasoning is how requests ask the model to reason: none, effort
	// (reasoning_effort) or deepseek (DeepSeek's thinking fields); empty
	// keeps the provider profile's.
	Reasoning string   `toml:"reasoning"`
	Images    *bool    `toml:"images"`
	Aliases   []string `toml:"aliases"`
}

// Provider is a [[providers]] entry: a server models can be sent to, picked
// with --provider NAME or /model NAME/MODEL. An entry named like a built-in
// (deepseek, openai) changes the fields it sets.
type Provider struct {
	Name    string `toml:"name"`
	BaseURL string `toml:"base_url"`
	// KeyEnv names the variable holding the API key (looked up in the
	// environment, then in $TACK_HOME/credentials); empty for a server
	// that takes none.
	KeyEnv string `toml:"key_env"`
	// Profile is what the server accepts: deepseek, openai or
	// openai-compatible (the default).
	Profile string `toml:"profile"`
	// Model is the model used with --provider NAME and no --model.
	Model string `toml:"model"`
}

// Home is $TACK_HOME, or ~/.tack.
func Home(getenv func(string) string) (string, error) {
	if h := getenv("TACK_HOME"); h != "" {
		return filepath.Abs(h)
	}
	u := getenv("HOME")
	if u == "" {
		return "", errors.New("neither TACK_HOME nor HOME is set; set TACK_HOME to a directory tack may write")
	}
	return filepath.Join(u, ".tack"), nil
}

// Path is the config file's location.
func Path(home string) string { return filepath.Join(home, "config.toml") }

// Load reads the config file. A missing file is an empty config; a bad one
// is an error naming the file, the line and the problem.
func Load(home string) (File, error) {
	var f File
	p := Path(home)
	src, err := os.ReadFile(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return File{}, nil
	case errors.Is(err, syscall.ENOTDIR):
		return File{}, fmt.Errorf("tack home %s is not a directory; set TACK_HOME to a directory tack may write", home)
	case err != nil:
		return File{}, fmt.Errorf("config file %s: %w; make it readable, or remove it", p, err)
	}
	var whole struct {
		File
		extensionTables
	}
	md, err := toml.Decode(string(src), &whole)
	if err != nil {
		return File{}, fmt.Errorf("config file %s: %w; fix or remove it", p, err)
	}
	f = whole.File
	if und := decodeExtensions(&f, p, src, md, whole.extensionTables); len(und) > 0 {
		return File{}, unknownSettingError(p, src, und[0])
	}
	if err := f.validate(); err != nil {
		return File{}, fmt.Errorf("config file %s: %w", p, err)
	}
	return f, nil
}

// validate checks the values the decoder cannot: names, profiles and
// reasoning styles.
func (f File) validate() error {
	if err := f.Checkpoints.validate(); err != nil {
		return err
	}
	switch f.Theme {
	case "", "auto", "dark", "light":
	default:
		return fmt.Errorf("theme = %q: want auto, dark or light", f.Theme)
	}
	switch f.Notify {
	case "", "bell", "osc9", "off":
	default:
		return fmt.Errorf("notify = %q: want bell, osc9 or off", f.Notify)
	}
	seen := map[string]bool{}
	for i, p := range f.Providers {
		switch {
		case p.Name == "":
			return fmt.Errorf("[[providers]] entry %d has no name; give it one, as in name = \"local\"", i+1)
		case strings.ContainsAny(p.Name, "/ "):
			return fmt.Errorf("provider name %q may not hold '/' or spaces, which /model PROVIDER/MODEL splits on; rename it", p.Name)
		case seen[p.Name]:
			return fmt.Errorf("provider %q is defined twice; keep one [[providers]] entry per name", p.Name)
		}
		seen[p.Name] = true
		if p.Profile != "" {
			if _, err := llm.ProfileByName(p.Profile); err != nil {
				return fmt.Errorf("provider %s: %w", p.Name, err)
			}
		}
	}
	for _, m := range f.Models {
		if m.ID == "" {
			return errors.New("a [[models]] entry has no id; give it the model's name, as in id = \"qwen3\"")
		}
		if m.Reasoning != "" {
			if _, err := llm.ParseReasoning(m.Reasoning); err != nil {
				return fmt.Errorf("model %s: %w", m.ID, err)
			}
		}
	}
	return nil
}

// Apply adds the file's models to the catalog. An entry for a model the
// catalog knows changes only the fields it sets.
func (f File) Apply(c *llm.Catalog) {
	for _, p := range f.Providers {
		c.AddProvider(p.Name)
	}
	for _, m := range f.Models {
		base, ok := c.LookupIn(m.Provider, m.ID)
		if !ok {
			base = llm.Model{ID: m.ID, Provider: m.Provider, Name: m.ID}
		}
		base.Provider = cmp.Or(m.Provider, base.Provider)
		base.Name = cmp.Or(m.Name, base.Name)
		base.ContextWindow = cmp.Or(m.ContextWindow, base.ContextWindow)
		base.MaxOutput = cmp.Or(m.MaxOutput, base.MaxOutput)
		if m.PriceCacheHit != 0 || m.PriceCacheMiss != 0 || m.PriceOutput != 0 || !ok {
			base.Price = llm.Price{CacheHit: m.PriceCacheHit, CacheMiss: m.PriceCacheMiss, Output: m.PriceOutput}
		}
		base.Reasoning = cmp.Or(llm.Reasoning(m.Reasoning), base.Reasoning)
		if m.Images != nil {
			base.Images = *m.Images
		}
		base.Aliases = append(base.Aliases, m.Aliases...)
		c.Add(base)
	}
}

// ProviderList is the built-in providers with the file's entries applied:
// an entry named like a built-in changes the fields it sets, any other is
// added. base_url replaces the base URL of provider inUse.
func (f File) ProviderList(inUse string) llm.Providers {
	list := llm.Providers(llm.BuiltinProviders())
	for _, p := range f.Providers {
		i := slices.IndexFunc(list, func(b llm.ProviderConfig) bool { return b.Name == p.Name })
		if i < 0 {
			list = append(list, llm.ProviderConfig{Name: p.Name, Profile: llm.ProfileOpenAICompatible})
			i = len(list) - 1
		}
		b := &list[i]
		b.BaseURL = cmp.Or(p.BaseURL, b.BaseURL)
		b.KeyEnv = cmp.Or(p.KeyEnv, b.KeyEnv)
		b.Profile = cmp.Or(p.Profile, b.Profile)
		b.Model = cmp.Or(p.Model, b.Model)
	}
	if f.BaseURL != "" {
		if i := slices.IndexFunc(list, func(b llm.ProviderConfig) bool { return b.Name == inUse }); i >= 0 {
			list[i].BaseURL = f.BaseURL
		}
	}
	return list
}

// CredentialsPath is where a key typed at first run is stored.
func CredentialsPath(home string) string { return filepath.Join(home, "credentials") }

// Credentials reads KEY=value lines from the credentials file. A missing
// file is no credentials.
func Credentials(home string) (map[string]string, error) {
	f, err := os.Open(CredentialsPath(home))
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read credentials: %w", err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		out[strings.TrimSpace(k)] = strings.Trim(strings.TrimSpace(v), `"'`)
	}
	return out, sc.Err()
}

// SaveCredential stores KEY=value in the credentials file with mode 0600,
// keeping other keys.
func SaveCredential(home, key, value string) error {
	creds, err := Credentials(home)
	if err != nil {
		return err
	}
	creds[key] = value
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(creds)) {
		fmt.Fprintf(&b, "%s=%s\n", k, creds[k])
	}
	if err := privfile.Write(CredentialsPath(home), []byte(b.String())); err != nil {
		return fmt.Errorf("save credentials: %w", err)
	}
	return nil
}

// Env layers the credentials file under the process environment: a
// variable set in the environment wins.
func Env(getenv func(string) string, creds map[string]string) func(string) string {
	return func(k string) string {
		if v := getenv(k); v != "" {
			return v
		}
		return creds[k]
	}
}
