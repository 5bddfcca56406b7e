package claudemsg

import (
	"encoding/json"
	"strings"
)

// askUserQuestionOutput is AskUserQuestion's AskUserQuestionOutput: the
// questions the call asked, as Claude Code's input has them, and the
// user's answer to each by its question, the options chosen and any text
// of their own joined by ", " as Claude Code joins a multi-select answer.
// The answers are those of the text the model read, tack's JSON
// {"answers":[{"id","selected","custom"}]}, whose id is the question's
// own or, for a question without one, its text.
func askUserQuestionOutput(input json.RawMessage, text string) any {
	var in struct {
		Questions []askedQuestion `json:"questions"`
	}
	var read struct {
		Answers []struct {
			ID       string   `json:"id"`
			Selected []string `json:"selected"`
			Custom   string   `json:"custom"`
		} `json:"answers"`
	}
	if json.Unmarshal(input, &in) != nil || json.Unmarshal([]byte(text), &read) != nil {
		return nil
	}
	byID := map[string]string{}
	for _, q := range in.Questions {
		byID[q.Question] = q.Question
		if q.ID != "" {
			byID[q.ID] = q.Question
		}
	}
	out := questionsAnswered{Questions: make([]claudeQuestion, len(in.Questions)), Answers: map[string]string{}}
	for i, q := range in.Questions {
		out.Questions[i] = q.claude()
	}
	for _, a := range read.Answers {
		parts := a.Selected
		if a.Custom != "" {
			parts = append(parts, a.Custom)
		}
		out.Answers[byID[a.ID]] = strings.Join(parts, ", ")
	}
	return out
}

// askedQuestion is a question as a call may send it: Claude Code's
// fields, with tack's id and multi_select beside them.
type askedQuestion struct {
	ID               string         `json:"id"`
	Question         string         `json:"question"`
	Header           string         `json:"header"`
	Options          []claudeOption `json:"options"`
	MultiSelect      bool           `json:"multiSelect"`
	SnakeMultiSelect bool           `json:"multi_select"`
}

func (q askedQuestion) claude() claudeQuestion {
	opts := q.Options
	if opts == nil {
		opts = []claudeOption{}
	}
	return claudeQuestion{Question: q.Question, Header: q.Header, Options: opts, MultiSelect: q.MultiSelect || q.SnakeMultiSelect}
}

type questionsAnswered struct {
	Questions []claudeQuestion  `json:"questions"`
	Answers   map[string]string `json:"answers"`
}

type claudeQuestion struct {
	Question    string         `json:"question"`
	Header      string         `json:"header"`
	Options     []claudeOption `json:"options"`
	MultiSelect bool           `json:"multiSelect"`
}

type claudeOption struct {
	Label       string `json:"label"`
	Description string `json:"description"`
	Preview     string `json:"preview,omitempty"`
}
