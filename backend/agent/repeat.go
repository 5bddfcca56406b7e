package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// RepeatGuardOrigin marks the context message the repeat guard injects.
const RepeatGuardOrigin = "repeat-guard"

// firstRepeat is the count of identical consecutive tool calls at which
// the model is first reminded that it is going round in circles.
const firstRepeat = 3

// repeatPreview bounds the arguments quoted back to the model.
const repeatPreview = 500

// repeatGuard counts identical consecutive tool calls within a turn. A
// model stuck in a loop gets a reminder instead of silently burning
// requests; the user can always cancel.
type repeatGuard struct {
	last  string // name and compacted arguments of the previous call
	count int
}

// observe takes a step's tool calls in the model's order and returns the
// reminder to inject, or "" when none is due.
func (g *repeatGuard) observe(calls []callSig) string {
	note := ""
	for _, c := range calls {
		sig := c.name + "\x00" + compactJSON(c.args)
		if sig == g.last {
			g.count++
		} else {
			g.last, g.count = sig, 1
		}
		if n := g.count; isRepeatThreshold(n) {
			note = repeatNote(c, n)
		}
	}
	return note
}

// callSig is what makes two tool calls the same call.
type callSig struct{ name, args string }

// isRepeatThreshold reports whether the n-th identical call earns a
// reminder: the first at firstRepeat, firmer ones at 5 and 8.
func isRepeatThreshold(n int) bool {
	switch n {
	case firstRepeat, 5, 8:
		return true
	}
	return false
}

func repeatNote(c callSig, n int) string {
	args := c.args
	if r := []rune(args); len(r) > repeatPreview {
		args = string(r[:repeatPreview]) + "…"
	}
	if n == firstRepeat {
		return fmt.Sprintf("You are repeating the exact same tool call with identical arguments. "+
			"Carefully analyze the previous result before calling again: %s %s", c.name, args)
	}
	return fmt.Sprintf("Repeated tool call detected: %s has been called %d times in a row with identical arguments %s. "+
		"Its result will not change. Try a different approach, or stop and tell the user what is blocking you.", c.name, n, args)
}

// compactJSON drops insignificant whitespace so that calls differing only
// in layout count as the same; anything unparsable is compared as sent.
func compactJSON(s string) string {
	var b bytes.Buffer
	if json.Compact(&b, []byte(s)) != nil {
		return s
	}
	return b.String()
}
