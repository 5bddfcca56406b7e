package elicit

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"net/mail"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tack-agent/tack/backend/interact"
)

// The choices beside a field's own: leave an optional field out, or
// decline the whole form. A text field takes them typed.
const (
	SkipLabel    = "Skip this field"
	DeclineLabel = "Decline the whole form"
	SkipWord     = "/skip"
	DeclineWord  = "/decline"
)

// errDeclined is an answer that declines the form.
var errDeclined = errors.New("declined")

// question asks for field f (the i-th of n) of r; problem says what was
// wrong with the last answer.
func question(r Request, f Field, i, n int, problem string) interact.Question {
	q := interact.Question{ID: f.Name, Header: fmt.Sprintf("%s · %d/%d", r.Server, i+1, n), Server: r.Server}
	q.Question = cmp.Or(f.Title, f.Name)
	if f.Required {
		q.Question += " (required)"
	} else {
		q.Question += " (optional)"
	}
	detail := []string{fmt.Sprintf("MCP server %s asks: %s", r.Server, strings.TrimSpace(r.Message))}
	if f.Description != "" {
		detail = append(detail, f.Description)
	}
	if h := hint(f); h != "" {
		detail = append(detail, h)
	}
	switch f.Kind {
	case Boolean:
		q.Options = []interact.Option{{Label: "Yes", Recommended: f.Default == true}, {Label: "No", Recommended: f.Default == false}}
	case Choice, Choices:
		for _, o := range f.Options {
			q.Options = append(q.Options, interact.Option{Label: o.Label, Recommended: isDefault(f.Default, o.Value)})
		}
		q.MultiSelect = f.Kind == Choices
	default:
		q.AllowCustom = true
		words := "Type " + DeclineWord + " to decline the whole form"
		if !f.Required {
			words = "Type " + SkipWord + " to leave it out, " + DeclineWord + " to decline the whole form"
		}
		detail = append(detail, words+"; Esc (Ctrl+C in line mode) cancels it.")
	}
	if len(q.Options) > 0 {
		if !f.Required {
			q.Options = append(q.Options, interact.Option{Label: SkipLabel})
		}
		q.Options = append(q.Options, interact.Option{Label: DeclineLabel})
	}
	if problem != "" {
		detail = append(detail, "✗ "+problem)
	}
	q.Detail = strings.Join(detail, "\n\n") // paragraphs: the panel renders Markdown
	return q
}

func isDefault(def any, value string) bool {
	if list, ok := def.([]any); ok {
		return slices.Contains(list, any(value))
	}
	return def == value
}

// formats name the string formats a form may ask for.
var formats = map[string]string{
	"email": "an email address", "uri": "an address (URI) such as https://example.com",
	"date": "a date (YYYY-MM-DD)", "date-time": "a date and time (YYYY-MM-DDThh:mm:ssZ)",
}

// hint says what a field takes beyond its kind's options.
func hint(f Field) string {
	var parts []string
	switch f.Kind {
	case Integer:
		parts = append(parts, "A whole number"+rangeText(f.Minimum, f.Maximum))
	case Number:
		parts = append(parts, "A number"+rangeText(f.Minimum, f.Maximum))
	case Text:
		if name := formats[f.Format]; name != "" {
			parts = append(parts, strings.ToUpper(name[:1])+name[1:])
		}
		if f.MinLength != nil || f.MaxLength != nil {
			parts = append(parts, lengthText(f.MinLength, f.MaxLength, "characters"))
		}
	case Choices:
		parts = append(parts, "Choose "+lengthText(f.MinItems, f.MaxItems, "of them"))
	}
	if f.Default != nil && f.Kind != Choice && f.Kind != Choices && f.Kind != Boolean {
		parts = append(parts, fmt.Sprintf("the server's default: %v", f.Default))
	}
	return strings.Join(parts, "; ")
}

func rangeText(lo, hi *float64) string {
	switch {
	case lo != nil && hi != nil:
		return fmt.Sprintf(" from %v to %v", *lo, *hi)
	case lo != nil:
		return fmt.Sprintf(" of at least %v", *lo)
	case hi != nil:
		return fmt.Sprintf(" of at most %v", *hi)
	}
	return ""
}

func lengthText(lo, hi *int, unit string) string {
	switch {
	case lo != nil && hi != nil:
		return fmt.Sprintf("%d to %d %s", *lo, *hi, unit)
	case lo != nil:
		return fmt.Sprintf("at least %d %s", *lo, unit)
	case hi != nil:
		return fmt.Sprintf("at most %d %s", *hi, unit)
	}
	return "any " + unit
}

// value is the answer a as field f's value, of the JSON type the schema
// names; skip says the user left an optional field out. An answer that
// declines the form is errDeclined; any other error says what is wrong,
// for the question asked again.
func value(f Field, a interact.Answer) (v any, skip bool, err error) {
	text := strings.TrimSpace(a.Custom)
	switch {
	case slices.Contains(a.Selected, DeclineLabel) || text == DeclineWord:
		return nil, false, errDeclined
	case slices.Contains(a.Selected, SkipLabel) || text == SkipWord:
		if f.Required {
			return nil, false, fmt.Errorf("%s is required: give a value, or decline the form", cmp.Or(f.Title, f.Name))
		}
		return nil, true, nil
	}
	switch f.Kind {
	case Boolean:
		return slices.Contains(a.Selected, "Yes"), false, nil
	case Choice:
		return chosen(f, a.Selected[:min(1, len(a.Selected))])
	case Choices:
		vs, _, err := chosen(f, a.Selected)
		return vs, false, err
	case Integer, Number:
		v, err := number(f, text)
		return v, false, err
	}
	return text, false, checkText(f, text)
}

// chosen are the values of the labels picked: one for Choice, a list for
// Choices, within its item limits.
func chosen(f Field, labels []string) (any, bool, error) {
	var vs []any
	for _, l := range labels {
		i := slices.IndexFunc(f.Options, func(o Option) bool { return o.Label == l })
		if i < 0 {
			return nil, false, fmt.Errorf("%q is none of the choices", l)
		}
		vs = append(vs, f.Options[i].Value)
	}
	if f.Kind == Choice {
		if len(vs) != 1 {
			return nil, false, errors.New("choose one of the options")
		}
		return vs[0], false, nil
	}
	if f.MinItems != nil && len(vs) < *f.MinItems || f.MaxItems != nil && len(vs) > *f.MaxItems {
		return nil, false, fmt.Errorf("choose %s (you chose %d)", lengthText(f.MinItems, f.MaxItems, "of them"), len(vs))
	}
	return vs, false, nil
}

// number reads text as an integer (int64) or a number (float64) within
// the field's range.
func number(f Field, text string) (any, error) {
	n, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(n, 0) || math.IsNaN(n) {
		return nil, fmt.Errorf("%q is not a number", text)
	}
	if f.Kind == Integer && n != math.Trunc(n) {
		return nil, fmt.Errorf("%q is not a whole number", text)
	}
	if f.Minimum != nil && n < *f.Minimum || f.Maximum != nil && n > *f.Maximum {
		return nil, fmt.Errorf("%s is out of range: give a number%s", text, rangeText(f.Minimum, f.Maximum))
	}
	if f.Kind == Integer {
		return int64(n), nil
	}
	return n, nil
}

// checkText checks a string's length and format.
func checkText(f Field, text string) error {
	n := utf8.RuneCountInString(text)
	if f.MinLength != nil && n < *f.MinLength || f.MaxLength != nil && n > *f.MaxLength {
		return fmt.Errorf("give %s (this is %d)", lengthText(f.MinLength, f.MaxLength, "characters"), n)
	}
	var bad bool
	switch f.Format {
	case "email":
		addr, err := mail.ParseAddress(text)
		bad = err != nil || addr.Address != text
	case "uri":
		u, err := url.Parse(text)
		bad = err != nil || u.Scheme == ""
	case "date":
		_, err := time.Parse(time.DateOnly, text)
		bad = err != nil
	case "date-time":
		_, err := time.Parse(time.RFC3339, text)
		bad = err != nil
	}
	if bad {
		return fmt.Errorf("%q is not %s", text, formats[f.Format])
	}
	return nil
}
