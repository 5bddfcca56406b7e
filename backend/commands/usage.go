package commands

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
)

// Models is the model catalog the built-ins list, price and size with
// (*llm.Catalog).
type Models interface {
	Models() []llm.Model
}

// meterCells is the width of the /status meters.
const meterCells = 16

// findModel returns the catalog entry for id, which may be a bare model id
// or "provider/model".
func findModel(models Models, id string) (llm.Model, bool) {
	if models == nil || id == "" {
		return llm.Model{}, false
	}
	list := models.Models()
	if i := slices.IndexFunc(list, func(m llm.Model) bool { return m.ID == id }); i >= 0 {
		return list[i], true
	}
	i := slices.IndexFunc(list, func(m llm.Model) bool { return modelRef(m) == id })
	if i < 0 {
		return llm.Model{}, false
	}
	return list[i], true
}

// modelRef is "provider/model", or the bare id when there is no provider.
func modelRef(m llm.Model) string {
	if m.Provider == "" {
		return m.ID
	}
	return m.Provider + "/" + m.ID
}

// displayModel names a model id the way the catalog knows it.
func displayModel(models Models, id string) string {
	if m, ok := findModel(models, id); ok {
		return modelRef(m)
	}
	return id
}

// sessionCost prices every step's usage at the model that step used, at
// the rate of the hour it was made. It reports the first model without a
// catalog price, if any.
func sessionCost(models Models, usage []session.ModelUsage) (cost float64, unpriced string) {
	for _, u := range usage {
		m, ok := findModel(models, u.Model)
		if !ok {
			if unpriced == "" {
				unpriced = u.Model
			}
			continue
		}
		cost += m.Cost(u.Usage, u.From)
	}
	return cost, unpriced
}

// grouped formats n with thousands separators: 1,250.
func grouped(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// meter draws a 16-cell bar filled to ratio (clamped to 0..1).
func meter(ratio float64) string {
	filled := int(math.Round(math.Max(0, math.Min(1, ratio)) * meterCells))
	return "[" + strings.Repeat("█", filled) + strings.Repeat("░", meterCells-filled) + "]"
}

// percent is ratio as a whole percentage, at most 100.
func percent(ratio float64) int {
	return int(math.Min(100, math.Round(ratio*100)))
}

// plural is "1 turn" or "3 turns".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return grouped(n) + " " + noun + "s"
}

// tokensText is "1,250 input + 340 output (120 reasoning)"; input is the
// uncached prompt tokens, as billed.
func tokensText(u llm.Usage) string {
	s := fmt.Sprintf("%s input + %s output", grouped(u.Input), grouped(u.Output))
	if u.Reasoning > 0 {
		s += fmt.Sprintf(" (%s reasoning)", grouped(u.Reasoning))
	}
	return s
}

// cacheText is the KV cache hit rate with a meter.
func cacheText(u llm.Usage) string {
	if u.Prompt() == 0 {
		return "n/a (no input billed yet)"
	}
	ratio := float64(u.CacheRead) / float64(u.Prompt())
	return fmt.Sprintf("%s %d%% hit (%s read + %s uncached)", meter(ratio), percent(ratio), grouped(u.CacheRead), grouped(u.Input))
}

// costText is "$0.0123", or why the cost is unknown.
func costText(cost float64, unpriced string) string {
	if unpriced != "" {
		return fmt.Sprintf("n/a (no price for %s)", unpriced)
	}
	return fmt.Sprintf("$%.4f", cost)
}

// clock formats t as "2006-01-02 15:04:05 UTC".
func clock(t time.Time) string {
	return t.UTC().Format("2006-01-02 15:04:05") + " UTC"
}
