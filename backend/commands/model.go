package commands

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tack-agent/tack/backend/llm"
)

const modelUsage = "Usage: /model [provider/]model [effort]"

func modelCommand(models Models) Command {
	return Command{
		Name: "model", Description: "List models, or switch model and reasoning effort from the next step",
		Input: Input{Hint: "[[provider/]model] [effort]"}, WhileRunning: true,
		Handler: withSession(func(_ context.Context, inv Invocation, sa SessionAgent) Result {
			current, effort := sa.Model()
			args := strings.Fields(inv.RawInput)
			if len(args) == 0 {
				return Result{Kind: Success, Text: modelList(models, current, effort), Action: ActionOpenModelPicker{}}
			}
			m, want, fail, ok := resolveModel(models, current, args)
			if !ok {
				return fail
			}
			want, fail, ok = chooseEffort(m, effort, want)
			if !ok {
				return fail
			}
			ref := modelRef(m)
			if sameModel(m, current) && want == effort {
				return Succeed(fmt.Sprintf("Model is already %s with reasoning effort %s.", ref, want))
			}
			// A bare id reaches the provider the catalog lists it under;
			// one listed under several needs its provider.
			name := m.ID
			if len(matchModels(models, m.ID)) > 1 {
				name = ref
			}
			if err := sa.SetModel(name, want); err != nil {
				return Failf("Could not switch to %s: %v", ref, err)
			}
			return Succeed(fmt.Sprintf("Model selected: %s. Reasoning effort: %s. New steps will use it.", ref, want))
		}),
	}
}

// effortCommand is /effort [level], Claude Code's name for setting the
// reasoning effort alone: /model LEVEL, and without one what it is.
func effortCommand(models Models) Command {
	setModel := modelCommand(models).Handler
	return Command{
		Name: "effort", Description: "Show or set the reasoning effort from the next step",
		Input: Input{Hint: "[" + effortList(llm.Efforts) + "]"}, WhileRunning: true,
		Handler: withSession(func(ctx context.Context, inv Invocation, sa SessionAgent) Result {
			current, effort := sa.Model()
			accepted := llm.Efforts
			if m, ok := findModel(models, current); ok && len(m.Efforts) > 0 {
				accepted = m.Efforts
			}
			args := strings.Fields(inv.RawInput)
			switch {
			case len(args) == 0:
				return Succeed(fmt.Sprintf("Reasoning effort: %s (%s takes %s). /effort LEVEL changes it.",
					cmp.Or(effort, "default"), displayModel(models, current), effortList(accepted)))
			case len(args) > 1:
				return Failf("Usage: /effort [%s]", effortList(accepted))
			}
			if _, ok := llm.ParseEffort(args[0]); !ok {
				return Failf("Unknown reasoning effort %q (available: %s).", args[0], effortList(accepted))
			}
			return setModel(ctx, inv)
		}),
	}
}

// resolveModel reads "/model [provider/]model [effort]", "/model provider
// model [effort]" and "/model effort" (keep the model). It returns the
// catalog entry and the requested effort, "" when none was given.
func resolveModel(models Models, current string, args []string) (llm.Model, llm.Effort, Result, bool) {
	if len(args) > 3 {
		return llm.Model{}, "", Fail(modelUsage), false
	}
	spec, rest := args[0], args[1:]
	if len(args) >= 2 && !strings.Contains(spec, "/") && isProvider(models, spec) {
		if _, isEffort := llm.ParseEffort(args[1]); !isEffort {
			spec, rest = spec+"/"+args[1], args[2:]
		}
	}
	if len(rest) > 1 {
		return llm.Model{}, "", Fail(modelUsage), false
	}
	var want llm.Effort
	if len(rest) == 1 {
		e, ok := llm.ParseEffort(rest[0])
		if !ok {
			return llm.Model{}, "", Failf("Unknown reasoning effort %q (available: %s).", rest[0], effortList(llm.Efforts)), false
		}
		want = e
	}
	matches := matchModels(models, spec)
	if e, isEffort := llm.ParseEffort(spec); isEffort && len(matches) == 0 && len(args) == 1 {
		if m, ok := findModel(models, current); ok {
			return m, e, Result{}, true
		}
		return llm.Model{ID: current}, e, Result{}, true
	}
	switch len(matches) {
	case 0:
		return llm.Model{}, "", Failf("Unknown model: %s. Run /model to list available models.", spec), false
	case 1:
		return matches[0], want, Result{}, true
	}
	return llm.Model{}, "", Failf("Model %q is advertised by multiple providers; use /model <provider>/<model>.", spec), false
}

// matchModels finds the models spec names: "provider/model" exactly, or a
// bare model id under any provider.
func matchModels(models Models, spec string) []llm.Model {
	if models == nil {
		return nil
	}
	var out []llm.Model
	for _, m := range models.Models() {
		if modelRef(m) == spec || m.ID == spec {
			out = append(out, m)
		}
	}
	return out
}

func isProvider(models Models, name string) bool {
	return models != nil && slices.ContainsFunc(models.Models(), func(m llm.Model) bool { return m.Provider == name })
}

func sameModel(m llm.Model, current string) bool {
	return current == m.ID || current == modelRef(m)
}

// chooseEffort settles the effort for m: the requested one if m accepts it,
// else the current one if m accepts it, else m's default.
func chooseEffort(m llm.Model, current, want llm.Effort) (llm.Effort, Result, bool) {
	accepts := func(e llm.Effort) bool { return len(m.Efforts) == 0 || slices.Contains(m.Efforts, e) }
	switch {
	case want != "" && accepts(want):
		return want, Result{}, true
	case want != "":
		return "", Failf("%s does not support reasoning effort %s (available: %s).", modelRef(m), want, effortList(m.Efforts)), false
	case current != "" && accepts(current):
		return current, Result{}, true
	case m.DefaultEffort != "":
		return m.DefaultEffort, Result{}, true
	}
	return llm.EffortOff, Result{}, true
}

func effortList(efforts []llm.Effort) string {
	names := make([]string, len(efforts))
	for i, e := range efforts {
		names[i] = string(e)
	}
	return strings.Join(names, ", ")
}

// modelList is the line-mode model listing: one row per model with its
// context window and prices, the current one starred.
func modelList(models Models, current string, effort llm.Effort) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Models (current: %s, reasoning effort %s):\n", displayModel(models, current), effort)
	var list []llm.Model
	if models != nil {
		list = models.Models()
	}
	for _, m := range list {
		mark := "  "
		if sameModel(m, current) {
			mark = "* "
		}
		offPeak := ""
		if m.OffPeak != nil {
			offPeak = fmt.Sprintf(" (×%g off-peak)", m.OffPeak.Factor)
		}
		fmt.Fprintf(&b, "%s%s — %s — %s context — %s hit · %s miss · %s output per 1M tokens%s\n", mark, modelRef(m), m.Name,
			grouped(m.ContextWindow), price(m.Price.CacheHit), price(m.Price.CacheMiss), price(m.Price.Output), offPeak)
	}
	if len(list) == 0 {
		b.WriteString("  (no models configured)\n")
	}
	b.WriteString("Switch with /model [provider/]model [effort].")
	return b.String()
}

// price is a per-million price with at least two decimals: $0.30, $0.006.
func price(usd float64) string {
	s := strconv.FormatFloat(usd, 'f', -1, 64)
	dot := strings.IndexByte(s, '.')
	switch {
	case dot < 0:
		s += ".00"
	case len(s)-dot-1 < 2:
		s += "0"
	}
	return "$" + s
}
