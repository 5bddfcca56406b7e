package launch

import (
	"fmt"
	"strings"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/skills"
	"github.com/tack-agent/tack/backend/subagent"
)

// tellOnce tells the user, the first time def runs in the session, what
// of its file tack does not do as Claude Code would: the model of Claude
// Code's it names (model runs instead), the fields it does not apply and
// the skills it preloads that are not found.
func (r *taskRunner) tellOnce(def subagent.Definition, model string) {
	var says []string
	if def.ClaudeModel != "" {
		says = append(says, fmt.Sprintf("names Claude Code's model %q, which tack's providers do not serve; "+
			"it runs on the session's model, %s", def.ClaudeModel, model))
	}
	if len(def.Unapplied) > 0 {
		says = append(says, unappliedNote(def))
	}
	if missing := missingSkills(r.s.Skills, def); len(missing) > 0 {
		says = append(says, missingNote(missing))
	}
	note := agentNote(def, says)
	if note == "" {
		return
	}
	if _, told := r.told.LoadOrStore(def.Name, true); told {
		return
	}
	r.s.Agent.Notify(agent.Notice{Tone: agent.NoticeWarning, Text: note})
}

func missingNote(missing []string) string {
	return "preloads skills there are none of here: " + strings.Join(missing, ", ") +
		" (add them to .claude/skills, or take them out of its skills)"
}

func unappliedNote(def subagent.Definition) string {
	return "sets " + strings.Join(def.Unapplied, " and ") + ", which tack does not apply to agents: " +
		"it works under the session's permission mode, and the session's hooks run for it"
}

// agentNote is one notice of what says of def; "" for nothing.
func agentNote(def subagent.Definition, says []string) string {
	if len(says) == 0 {
		return ""
	}
	return "The " + def.Name + " agent " + strings.Join(says, ". It ") + "."
}

// preloaded is the system prompt's section of the skills def preloads,
// of catalog: each skill's instructions, as /skill:NAME sends them, as
// Claude Code's agents get the skills their files list. Skills there are
// none of are left out (the notes say so).
func preloaded(catalog *skills.Catalog, def subagent.Definition) string {
	var parts []string
	for _, name := range def.Skills {
		s, ok := catalog.Find(name)
		if !ok {
			continue
		}
		if msg, err := s.Message(""); err == nil {
			parts = append(parts, msg)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "\n\n# Skills loaded for you\n\n" + strings.Join(parts, "\n\n")
}

// missingSkills are the skills def preloads that catalog has none of.
func missingSkills(catalog *skills.Catalog, def subagent.Definition) []string {
	var out []string
	for _, name := range def.Skills {
		if _, ok := catalog.Find(name); !ok {
			out = append(out, name)
		}
	}
	return out
}

// limited is turn with def's maxTurns as its limit of model requests,
// where it has none as low.
func limited(turn agent.TurnOptions, def subagent.Definition) agent.TurnOptions {
	if def.MaxTurns > 0 && (turn.MaxSteps == 0 || def.MaxTurns < turn.MaxSteps) {
		turn.MaxSteps = def.MaxTurns
	}
	return turn
}
