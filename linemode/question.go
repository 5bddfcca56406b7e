package linemode

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/views/textfmt"
)

// Re-ask messages for answers line mode cannot read.
const (
	askAnswer   = "Please enter an answer."
	askApproval = "Please answer y (yes), a (always for this session) or n (no), optionally followed by a reason."
)

// approvalChoices is the approval prompt line; %s is what "always"
// remembers.
const (
	approvalChoices     = "allow? [y]es / [a]lways for this session (%s) / [n]o (reason)"
	approvalChoicesOnce = "allow? [y]es / [n]o (reason)"
)

// shownOptions is the display order of a question's options: recommended
// ones first, the rest in the model's order.
func shownOptions(q interact.Question) []interact.Option {
	out := make([]interact.Option, 0, len(q.Options))
	for _, o := range q.Options {
		if o.Recommended {
			out = append(out, o)
		}
	}
	for _, o := range q.Options {
		if !o.Recommended {
			out = append(out, o)
		}
	}
	return out
}

// QuestionPrompt is the text that asks q: the header and question, the
// numbered options with their descriptions indented, and the prompt.
func QuestionPrompt(q interact.Question) string {
	var b strings.Builder
	b.WriteString("\n")
	if q.Header != "" {
		b.WriteString("[" + textfmt.SanitizeLine(q.Header) + "] ")
	}
	b.WriteString(textfmt.Sanitize(q.Question) + "\n")
	if q.Detail != "" {
		b.WriteString(indent(textfmt.Sanitize(q.Detail), "    ") + "\n")
	}
	for i, o := range shownOptions(q) {
		fmt.Fprintf(&b, "  %d. %s", i+1, textfmt.SanitizeLine(o.Label))
		if o.Recommended {
			b.WriteString(" (recommended)")
		}
		b.WriteString("\n")
		if o.Description != "" {
			b.WriteString(indent(textfmt.Sanitize(o.Description), "     ") + "\n")
		}
	}
	b.WriteString(Prompt)
	return b.String()
}

// ParseAnswer reads one line as the answer to q. A number picks a shown
// option (several, comma or space separated, for multi-select), an empty
// line picks the recommended option, other text is a custom answer when q
// allows one. When the line is no answer, ok is false and reask says what to
// enter instead.
func ParseAnswer(q interact.Question, line string) (a interact.Answer, reask string, ok bool) {
	text := strings.TrimSpace(line)
	opts := shownOptions(q)
	a = interact.Answer{ID: q.ID, Selected: []string{}}
	if len(opts) == 0 {
		if text == "" {
			return a, askAnswer, false
		}
		a.Custom = text
		return a, "", true
	}
	if text == "" {
		for _, o := range opts {
			if o.Recommended && (len(a.Selected) == 0 || q.MultiSelect) {
				a.Selected = append(a.Selected, o.Label)
			}
		}
		return a, reaskOptions(q), len(a.Selected) > 0
	}
	picks, numeric := optionNumbers(text, q.MultiSelect)
	switch {
	case !numeric && q.AllowCustom:
		a.Custom = text
		return a, "", true
	case !numeric:
		return a, reaskOptions(q), false
	}
	for _, n := range picks {
		if n < 1 || n > len(opts) {
			return a, reaskOptions(q), false
		}
		if label := opts[n-1].Label; !slices.Contains(a.Selected, label) {
			a.Selected = append(a.Selected, label)
		}
	}
	return a, "", true
}

// optionNumbers parses text as option numbers: one for single-select,
// several separated by commas or spaces for multi-select. numeric is false
// when any part is not a number.
func optionNumbers(text string, multi bool) (picks []int, numeric bool) {
	parts := []string{text}
	if multi {
		parts = strings.FieldsFunc(text, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
	}
	for _, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || strings.ContainsAny(p, "+-") {
			return nil, false
		}
		picks = append(picks, n)
	}
	return picks, len(picks) > 0
}

func reaskOptions(q interact.Question) string {
	msg := "Please enter one of the option numbers"
	if q.MultiSelect {
		msg += " (comma or space separated)"
	}
	if q.AllowCustom {
		msg += " or a custom answer"
	}
	return msg + "."
}

// ApprovalPrompt is the text that asks whether a tool call may run: what
// the full-screen dialog shows, in plain lines. The tool and summary, then
// the call's card (a command with its working directory, cwd when the call
// names none, and purpose; the diff of an edit), else the details; then the
// choices, "always" naming the prefix or tool it would remember.
func ApprovalPrompt(a interact.Approval, cwd string) string {
	var b strings.Builder
	b.WriteString("\n[approval] " + textfmt.SanitizeLine(a.Tool))
	if a.Summary != "" {
		b.WriteString(": " + textfmt.RevealLine(a.Summary))
	}
	b.WriteString("\n")
	var body []string
	switch {
	case a.Card != nil:
		body = cardLines(*a.Card, cwd)
	case a.Details != "" && a.Details != a.Summary:
		body = strings.Split(textfmt.Reveal(strings.TrimRight(a.Details, "\n")), "\n")
	}
	for _, l := range body {
		b.WriteString("    " + l + "\n")
	}
	if a.Remember != "" {
		b.WriteString(fmt.Sprintf(approvalChoices, textfmt.RevealLine(a.Remember)) + "\n")
	} else {
		b.WriteString(approvalChoicesOnce + "\n")
	}
	b.WriteString(Prompt)
	return b.String()
}

// ParseDecision reads one line as the answer to an approval: y or yes, a or
// always (when the call can be remembered), n or no followed by an optional
// reason the model reads.
func ParseDecision(a interact.Approval, line string) (d interact.Decision, reask string, ok bool) {
	word, reason, _ := strings.Cut(strings.TrimSpace(line), " ")
	reason = strings.TrimSpace(reason)
	switch strings.ToLower(word) {
	case "y", "yes":
		if reason == "" {
			return interact.Decision{Verdict: interact.Allow}, "", true
		}
	case "a", "always":
		if a.Remember != "" && reason == "" {
			return interact.Decision{Verdict: interact.AllowSession}, "", true
		}
	case "n", "no":
		return interact.Decision{Verdict: interact.Deny, Reason: reason}, "", true
	}
	return interact.Decision{}, askApproval, false
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}
