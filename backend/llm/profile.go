package llm

import (
	"fmt"
	"slices"
	"strings"
)

// Reasoning is how a request asks a model to reason, and whether the
// model's reasoning goes back to it in later requests.
type Reasoning string

const (
	// ReasoningNone sends no reasoning field.
	ReasoningNone Reasoning = "none"
	// ReasoningEffort sends reasoning_effort alone, as OpenAI and most
	// compatible servers take it.
	ReasoningEffort Reasoning = "effort"
	// ReasoningDeepSeek sends DeepSeek's thinking switch with
	// reasoning_effort, and passes each assistant message's reasoning back
	// as reasoning_content.
	ReasoningDeepSeek Reasoning = "deepseek"
)

// Reasonings lists the valid reasoning styles.
var Reasonings = []Reasoning{ReasoningNone, ReasoningEffort, ReasoningDeepSeek}

// Profile is what one kind of server accepts in a chat-completions
// request. It is data: the request encoder reads it and never asks which
// provider it talks to. A catalog entry may refine it for one model
// (Model.Reasoning, Model.EffortNames).
type Profile struct {
	Name string
	// Reasoning is the style for a model whose catalog entry names none.
	Reasoning Reasoning
	// Efforts is how each effort is spelled in reasoning_effort. An effort
	// missing from it sends no reasoning_effort (DeepSeek's "off" is the
	// thinking switch, not an effort).
	Efforts map[Effort]string
	// MaxTokensField names the output bound: max_tokens, or
	// max_completion_tokens, which api.openai.com requires of its reasoning
	// models and accepts of all.
	MaxTokensField string
}

// Profile names, as config.toml spells them.
const (
	ProfileDeepSeek         = "deepseek"
	ProfileOpenAI           = "openai"
	ProfileOpenAICompatible = "openai-compatible"
)

// The built-in profiles. Sources: DeepSeek's guides/thinking_mode
// (thinking switch, reasoning_effort low/high/max); api.openai.com answers
// 400 "Unrecognized request argument supplied: thinking" (llm_wiki#336) and
// "Unsupported parameter: 'max_tokens' ... Use 'max_completion_tokens'"
// to its reasoning models; servers that validate reasoning_effort take
// only low/medium/high (SGLang's 400 on "max", CLIProxyAPI#1572).
var (
	DeepSeekProfile = Profile{
		Name: ProfileDeepSeek, Reasoning: ReasoningDeepSeek,
		Efforts:        map[Effort]string{EffortLow: "low", EffortHigh: "high", EffortMax: "max"},
		MaxTokensField: "max_tokens",
	}
	// OpenAIProfile sends reasoning_effort only to models the catalog says
	// take it; an unknown OpenAI model may be one that refuses it.
	OpenAIProfile = Profile{
		Name: ProfileOpenAI, Reasoning: ReasoningNone,
		Efforts:        map[Effort]string{EffortLow: "low", EffortHigh: "high", EffortMax: "high"},
		MaxTokensField: "max_completion_tokens",
	}
	// OpenAICompatibleProfile is for servers tack knows nothing about
	// (vLLM, SGLang, llama.cpp, Ollama, LM Studio, gateways): the fields
	// every one of them accepts, and the three efforts all spell alike.
	OpenAICompatibleProfile = Profile{
		Name: ProfileOpenAICompatible, Reasoning: ReasoningEffort,
		Efforts:        map[Effort]string{EffortLow: "low", EffortHigh: "high", EffortMax: "high"},
		MaxTokensField: "max_tokens",
	}
)

var profiles = []Profile{DeepSeekProfile, OpenAIProfile, OpenAICompatibleProfile}

// ProfileNames lists the built-in profiles' names.
func ProfileNames() []string {
	names := make([]string, len(profiles))
	for i, p := range profiles {
		names[i] = p.Name
	}
	return names
}

// ProfileByName returns the built-in profile called name.
func ProfileByName(name string) (Profile, error) {
	if i := slices.IndexFunc(profiles, func(p Profile) bool { return p.Name == name }); i >= 0 {
		return profiles[i], nil
	}
	return Profile{}, fmt.Errorf("unknown profile %q: use %s", name, strings.Join(ProfileNames(), ", "))
}

// ParseReasoning validates a reasoning style name.
func ParseReasoning(s string) (Reasoning, error) {
	if slices.Contains(Reasonings, Reasoning(s)) {
		return Reasoning(s), nil
	}
	names := make([]string, len(Reasonings))
	for i, r := range Reasonings {
		names[i] = string(r)
	}
	return "", fmt.Errorf("unknown reasoning style %q: use %s", s, strings.Join(names, ", "))
}

// shape is how one request to model m is asked to reason and bounded.
type shape struct {
	reasoning Reasoning
	efforts   map[Effort]string
	maxField  string
}

func (p Profile) shapeFor(m Model) shape {
	s := shape{reasoning: p.Reasoning, efforts: p.Efforts, maxField: p.MaxTokensField}
	if m.Reasoning != "" {
		s.reasoning = m.Reasoning
	}
	if m.EffortNames != nil {
		s.efforts = m.EffortNames
	}
	if m.MaxTokensField != "" {
		s.maxField = m.MaxTokensField
	}
	if s.reasoning == "" {
		s.reasoning = ReasoningNone
	}
	if s.maxField == "" {
		s.maxField = "max_tokens"
	}
	return s
}

// effortNote says why a request for model m at effort e carries no
// reasoning field for it, or "" when the effort is applied. Effort off and
// the server's default ask nothing of the server, so they never need a
// note.
func (s shape) effortNote(m Model, e Effort, profile string) string {
	if e == "" || e == EffortOff {
		return ""
	}
	name := m.Ref()
	switch {
	case s.reasoning == ReasoningDeepSeek:
		return ""
	case s.reasoning == ReasoningEffort && s.efforts[e] != "":
		return ""
	case s.reasoning == ReasoningEffort:
		return fmt.Sprintf("reasoning effort %s is not applied: %s takes no such effort, so the request asks for none; pick another with /model or --effort", e, name)
	case m.Reasoning == ReasoningNone:
		return fmt.Sprintf("reasoning effort %s is not applied: %s is set to reasoning = \"none\" in config.toml, so requests carry no reasoning_effort", e, name)
	default:
		return fmt.Sprintf("reasoning effort %s is not applied: the %s profile sends reasoning_effort only to models tack knows take it, and %s is not one; "+
			"if it does, give it a [[models]] entry with reasoning = \"effort\" in config.toml (or use profile = \"openai-compatible\" for a server that is not api.openai.com)",
			e, profile, name)
	}
}
