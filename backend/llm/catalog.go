package llm

import (
	"slices"
)

// Price is what a model costs, in USD per million tokens.
type Price struct {
	CacheHit  float64 // prompt tokens served from the provider's cache
	CacheMiss float64 // uncached prompt tokens
	Output    float64 // completion tokens, reasoning included
}

// Model describes one model: its limits, prices and reasoning efforts.
type Model struct {
	ID            string
	Provider      string
	Name          string
	ContextWindow int
	MaxOutput     int
	Price         Price
	Efforts       []Effort // the efforts it accepts, weakest first
	DefaultEffort Effort
}

// Cost is what usage costs on this model, in USD.
func (m Model) Cost(u Usage) float64 {
	return (float64(u.CacheRead)*m.Price.CacheHit +
		float64(u.Input)*m.Price.CacheMiss +
		float64(u.Output)*m.Price.Output) / 1e6
}

// DefaultModel is the model tack uses when none is configured.
const DefaultModel = "deepseek-v4-flash"

// GenericContextWindow is assumed for a model the catalog does not know.
const GenericContextWindow = 128_000

// DeepSeek prices, from the Models & Pricing page
// (https://api-docs.deepseek.com/quick_start/pricing, the version listing
// deepseek-flash = DeepSeek-V4.1-Flash and deepseek-v4-pro =
// DeepSeek-V4-Pro-0813, also quoted as "checked on October 27, 2026" by
// github.com/benderandrew069/deepseek-api-pricing-2026). DeepSeek bills peak
// hours (01:00-04:00 and 06:00-10:00 UTC on weekdays) at these rates and
// off-peak hours at half; tack shows the peak rate so it never under-reports.
// deepseek-v4-flash is a retired name now served and billed as deepseek-flash.
var (
	flashPrice = Price{CacheHit: 0.006, CacheMiss: 0.30, Output: 1.20}
	proPrice   = Price{CacheHit: 0.044, CacheMiss: 1.32, Output: 3.96}
)

// Catalog is the set of known models: the built-ins plus what configuration
// adds. Unknown ids still work, with generic limits and no price.
type Catalog struct {
	models []Model
}

// NewCatalog returns a catalog holding the built-in DeepSeek models.
func NewCatalog() *Catalog {
	deepseek := func(id, name string, p Price) Model {
		return Model{
			ID: id, Provider: "deepseek", Name: name,
			ContextWindow: 1_000_000, MaxOutput: 384_000, Price: p,
			Efforts: slices.Clone(Efforts), DefaultEffort: EffortHigh,
		}
	}
	return &Catalog{models: []Model{
		deepseek("deepseek-v4-flash", "DeepSeek V4 Flash", flashPrice),
		deepseek("deepseek-v4-pro", "DeepSeek V4 Pro", proPrice),
		deepseek("deepseek-flash", "DeepSeek V4.1 Flash", flashPrice),
	}}
}

// Lookup returns the model with id, or a generic entry for id (128,000
// context, zero prices, every effort, thinking off) and false.
func (c *Catalog) Lookup(id string) (Model, bool) {
	if i := slices.IndexFunc(c.models, func(m Model) bool { return m.ID == id }); i >= 0 {
		return c.models[i], true
	}
	return Model{
		ID: id, Name: id,
		ContextWindow: GenericContextWindow, MaxOutput: GenericContextWindow / 4,
		Efforts: slices.Clone(Efforts), DefaultEffort: EffortOff,
	}, false
}

// Add registers m, replacing a model with the same ID.
func (c *Catalog) Add(m Model) {
	if i := slices.IndexFunc(c.models, func(x Model) bool { return x.ID == m.ID }); i >= 0 {
		c.models[i] = m
		return
	}
	c.models = append(c.models, m)
}

// Models lists the known models in the order they were added.
func (c *Catalog) Models() []Model { return slices.Clone(c.models) }
