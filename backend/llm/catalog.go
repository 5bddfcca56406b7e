package llm

import (
	"slices"
	"strings"
	"time"
)

// Price is what a model costs, in USD per million tokens.
type Price struct {
	CacheHit  float64 // prompt tokens served from the provider's cache
	CacheMiss float64 // uncached prompt tokens
	Output    float64 // completion tokens, reasoning included
}

// Model describes one model: its limits, prices, reasoning and inputs.
type Model struct {
	ID       string
	Provider string // the provider that serves it; "" for any
	Name     string
	// Aliases are other names the provider accepts for the model (legacy
	// names); they resolve to this entry and requests carry ID.
	Aliases       []string
	ContextWindow int
	// MaxOutput is the model's output limit, sent as the request's bound;
	// 0 when unknown, and then no bound is sent.
	MaxOutput int
	// Price is the price in force at peak hours, or at all hours when
	// OffPeak is nil.
	Price         Price
	OffPeak       *OffPeak
	Efforts       []Effort // the efforts it accepts, weakest first
	DefaultEffort Effort
	// Reasoning overrides the profile's reasoning style for this model;
	// "" keeps the profile's.
	Reasoning Reasoning
	// EffortNames overrides the profile's spelling of reasoning_effort.
	EffortNames map[Effort]string
	// MaxTokensField overrides the profile's name of the output bound:
	// OpenAI's reasoning models take only max_completion_tokens, whichever
	// server stands in front of them.
	MaxTokensField string
	// Images says the model reads image parts in user messages.
	Images bool
	// MaxImageSide is the longest side in pixels the model takes; larger
	// images are scaled down (DefaultMaxImageSide when 0).
	MaxImageSide int
}

// Ref is "provider/id", or the bare id of a model no provider owns.
func (m Model) Ref() string {
	if m.Provider == "" {
		return m.ID
	}
	return m.Provider + "/" + m.ID
}

// Named reports whether name names m: its id, its ref or an alias.
func (m Model) Named(name string) bool {
	return name == m.ID || name == m.Ref() || slices.Contains(m.Aliases, name)
}

// PriceAt is the price in force at t, and whether that is an off-peak
// rate.
func (m Model) PriceAt(t time.Time) (Price, bool) {
	if m.OffPeak == nil || m.OffPeak.peak(t) {
		return m.Price, false
	}
	f := m.OffPeak.Factor
	return Price{CacheHit: m.Price.CacheHit * f, CacheMiss: m.Price.CacheMiss * f, Output: m.Price.Output * f}, true
}

// Cost is what usage spent at t costs on this model, in USD.
func (m Model) Cost(u Usage, at time.Time) float64 {
	p, _ := m.PriceAt(at)
	return (float64(u.CacheRead)*p.CacheHit +
		float64(u.Input)*p.CacheMiss +
		float64(u.Output)*p.Output) / 1e6
}

// OffPeak is a discount outside a provider's busy hours: weekdays' Peak
// hours in Zone are billed at the full price, every other hour at Factor
// of it.
type OffPeak struct {
	Zone   *time.Location
	Peak   [][2]int // [from, to) hours of a weekday
	Factor float64
}

func (o *OffPeak) peak(t time.Time) bool {
	t = t.In(o.Zone)
	if d := t.Weekday(); d == time.Saturday || d == time.Sunday {
		return false
	}
	for _, h := range o.Peak {
		if t.Hour() >= h[0] && t.Hour() < h[1] {
			return true
		}
	}
	return false
}

// DefaultModel is the model tack uses when neither flags nor config name
// one and the provider is DeepSeek.
const DefaultModel = "deepseek-flash"

// DefaultOpenAIModel is the model of --provider openai without --model:
// OpenAI's small model of the GPT-5.4 family, priced for agent loops.
const DefaultOpenAIModel = "gpt-5.4-mini"

// GenericContextWindow is assumed for a model the catalog does not know.
const GenericContextWindow = 128_000

// DeepSeek prices, from the Models & Pricing page
// (https://api-docs.deepseek.com/quick_start/pricing, the version listing
// deepseek-flash = DeepSeek-V4.1-Flash and deepseek-v4-pro =
// DeepSeek-V4-Pro-0813, also quoted as "checked on October 27, 2026" by
// github.com/benderandrew069/deepseek-api-pricing-2026), at peak hours.
// deepseek-v4-flash is a retired name now served and billed as
// deepseek-flash; deepseek-chat and deepseek-reasoner, older still, were
// Flash without and with thinking.
var (
	flashPrice = Price{CacheHit: 0.006, CacheMiss: 0.30, Output: 1.20}
	proPrice   = Price{CacheHit: 0.044, CacheMiss: 1.32, Output: 3.96}
)

// deepSeekOffPeak is DeepSeek's half price outside Beijing-time weekday
// hours 09:00-12:00 and 14:00-18:00 (UTC+8). DeepSeek also bills Chinese
// public holidays off-peak; tack does not know their dates and prices
// them at peak, so it never under-reports.
var deepSeekOffPeak = &OffPeak{Zone: time.FixedZone("UTC+8", 8*3600), Peak: [][2]int{{9, 12}, {14, 18}}, Factor: 0.5}

// OpenAI GPT-5.4 family, from OpenAI's model pages as mirrored by the
// Vercel AI Gateway and OpenRouter (2026): gpt-5.4 $2.50/$15 per 1M,
// 1.05M context; gpt-5.4-mini $0.75/$4.50, 400K context; both 128K output,
// cached input at a tenth of the input price, reasoning_effort none, low,
// medium, high and xhigh.
var (
	gpt54Price     = Price{CacheHit: 0.25, CacheMiss: 2.50, Output: 15}
	gpt54MiniPrice = Price{CacheHit: 0.075, CacheMiss: 0.75, Output: 4.50}
	gpt5Efforts    = map[Effort]string{EffortOff: "none", EffortLow: "low", EffortHigh: "high", EffortMax: "xhigh"}
)

// Catalog is the set of known models: the built-ins plus what configuration
// adds. Unknown ids still work, with generic limits and no price.
type Catalog struct {
	models    []Model
	providers []string
}

// NewCatalog returns a catalog holding the built-in DeepSeek and OpenAI
// models.
func NewCatalog() *Catalog {
	deepseek := func(id, name string, p Price, images bool, aliases ...string) Model {
		return Model{
			ID: id, Provider: ProviderDeepSeek, Name: name, Aliases: aliases,
			ContextWindow: 1_000_000, MaxOutput: 384_000, Price: p, OffPeak: deepSeekOffPeak,
			Efforts: slices.Clone(Efforts), DefaultEffort: EffortHigh, Images: images,
		}
	}
	openai := func(id, name string, window int, p Price) Model {
		return Model{
			ID: id, Provider: ProviderOpenAI, Name: name,
			ContextWindow: window, MaxOutput: 128_000, Price: p,
			Efforts: slices.Clone(Efforts), DefaultEffort: EffortHigh,
			Reasoning: ReasoningEffort, EffortNames: gpt5Efforts, MaxTokensField: "max_completion_tokens", Images: true,
		}
	}
	return &Catalog{
		models: []Model{
			deepseek("deepseek-flash", "DeepSeek V4.1 Flash", flashPrice, true,
				"deepseek-v4-flash", "deepseek-chat", "deepseek-reasoner"),
			deepseek("deepseek-v4-pro", "DeepSeek V4 Pro", proPrice, false),
			openai("gpt-5.4-mini", "GPT-5.4 mini", 400_000, gpt54MiniPrice),
			openai("gpt-5.4", "GPT-5.4", 1_050_000, gpt54Price),
		},
		providers: []string{ProviderDeepSeek, ProviderOpenAI},
	}
}

// AddProvider makes name a provider that model refs may start with.
func (c *Catalog) AddProvider(name string) {
	if !slices.Contains(c.providers, name) {
		c.providers = append(c.providers, name)
	}
}

// IsProvider reports whether name is a provider refs may start with.
func (c *Catalog) IsProvider(name string) bool { return slices.Contains(c.providers, name) }

// Split cuts a model ref into its provider and model id. A ref starts with
// a provider only when the text before its first "/" names one, so ids
// with slashes of their own (Qwen/Qwen3-8B, deepseek/deepseek-chat on a
// gateway) stay whole unless prefixed: openrouter/deepseek/deepseek-chat.
func (c *Catalog) Split(ref string) (provider, id string) {
	if p, rest, ok := strings.Cut(ref, "/"); ok && rest != "" && c.IsProvider(p) {
		return p, rest
	}
	return "", ref
}

// Lookup returns the model a ref names: "provider/id", or a bare id or
// alias under any provider. An unknown ref gets a generic entry (128,000
// context, no output bound, zero prices, every effort, thinking off) and
// false.
func (c *Catalog) Lookup(ref string) (Model, bool) {
	provider, id := c.Split(ref)
	return c.LookupIn(provider, id)
}

// LookupIn returns the model id or alias names at provider ("" for any).
// A model added without a provider is served by every provider.
func (c *Catalog) LookupIn(provider, id string) (Model, bool) {
	i := slices.IndexFunc(c.models, func(m Model) bool {
		return (provider == "" || m.Provider == "" || m.Provider == provider) && (m.ID == id || slices.Contains(m.Aliases, id))
	})
	if i >= 0 {
		m := c.models[i]
		if m.Provider == "" {
			m.Provider = provider
		}
		return m, true
	}
	return Model{
		ID: id, Provider: provider, Name: id,
		ContextWindow: GenericContextWindow,
		Efforts:       slices.Clone(Efforts), DefaultEffort: EffortOff,
	}, false
}

// Add registers m, replacing the model with the same ID at the same
// provider (at any provider when m names none, which then keeps the
// replaced model's). Its provider becomes one that refs may start with.
func (c *Catalog) Add(m Model) {
	if m.Provider != "" {
		c.AddProvider(m.Provider)
	}
	if i := slices.IndexFunc(c.models, func(x Model) bool {
		return x.ID == m.ID && (m.Provider == "" || x.Provider == m.Provider)
	}); i >= 0 {
		if m.Provider == "" {
			m.Provider = c.models[i].Provider
		}
		c.models[i] = m
		return
	}
	c.models = append(c.models, m)
}

// Models lists the known models in the order they were added.
func (c *Catalog) Models() []Model { return slices.Clone(c.models) }
