package journeys

import (
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// scripted is a journey written as a conversation: what the person does
// and what the model answers, in order. Recording runs it through the real
// stack and keeps what happened as the journey.
type scripted struct {
	name     string
	settings settings
	files    map[string]string // the workspace seed
	moves    []move
}

// move is one entry of a scripted conversation: an action of the person,
// or the model's answer to its next request.
type move struct {
	act   *action
	reply *llmtest.Response
}

// plan lays the moves out as a run's plan. Steering is typed while the
// request for the answer before it is held.
func (j scripted) plan() plan {
	p := plan{settings: j.settings}
	for _, m := range j.moves {
		if m.reply != nil {
			p.script = append(p.script, *m.reply)
			continue
		}
		a := *m.act
		if a.kind == typeSteering {
			a.hold = len(p.script)
		}
		p.actions = append(p.actions, a)
	}
	return p
}

func user(text string) move  { return move{act: &action{kind: typePrompt, text: text}} }
func steer(text string) move { return move{act: &action{kind: typeSteering, text: text}} }
func restart() move          { return move{act: &action{kind: restartProgram}} }

func model(parts ...llmtest.Part) move {
	r := llmtest.Reply(parts...)
	return move{reply: &r}
}

func modelFails(r llmtest.Response) move { return move{reply: &r} }

func decide(tool string, v interact.Verdict, reason string) move {
	return move{act: &action{kind: decideApproval, tool: tool, decision: interact.Decision{Verdict: v, Reason: reason}}}
}

func answer(answers ...interact.Answer) move {
	return move{act: &action{kind: answerQuestion, answers: answers}}
}

func text(s string) llmtest.Part      { return llmtest.Text(s, 16) }
func reasoning(s string) llmtest.Part { return llmtest.Reasoning(s, 16) }

func call(id, name, args string) llmtest.Part { return llmtest.ToolCall(id, name, args, 3) }

// usage reports cache-hit and uncached prompt tokens and output tokens.
func usage(hit, miss, out int) llmtest.Part { return llmtest.Usage(hit, miss, out, 0) }

const notes = "buy milk\nwrite tests\n"

const mainGo = `package main

import "fmt"

func main() {
	fmt.Println("hello")
}
`

// scriptedJourneys are the journeys -record can write.
func scriptedJourneys() []scripted {
	return []scripted{
		{name: "multi-turn-conversation", settings: settings{Height: 50}, moves: []move{
			user("What is a goroutine, in one paragraph?"),
			model(reasoning("The user wants a short definition."),
				text("A **goroutine** is a function running concurrently with the rest of the program in the same "+
					"address space. It starts with a few kilobytes of stack that grow as needed, and the Go runtime "+
					"schedules many goroutines onto a few OS threads."), usage(0, 1200, 80)),
			user("And how do I wait for several of them?"),
			model(text("Use a `sync.WaitGroup`:\n\n```go\nvar wg sync.WaitGroup\nfor _, job := range jobs {\n\twg.Add(1)\n"+
				"\tgo func() {\n\t\tdefer wg.Done()\n\t\trun(job)\n\t}()\n}\nwg.Wait()\n```\n\n"+
				"Or `errgroup.Group` when the goroutines can fail."), usage(1152, 140, 120)),
			user("Thanks!"),
			model(text("You're welcome."), usage(1280, 30, 6)),
		}},
		{name: "bash-card", settings: settings{Mode: "full-access"},
			files: map[string]string{"notes.txt": notes, "README.md": "# demo\n"},
			moves: []move{
				user("What is in this project?"),
				model(reasoning("I will list the files first."), call("call_ls", "bash", `{"command":"ls","description":"List the files"}`), usage(0, 900, 30)),
				model(call("call_cat", "bash", `{"command":"cat notes.txt","description":"Show the notes"}`), usage(896, 40, 20)),
				model(text("A README and `notes.txt`, which lists two things: *buy milk* and *write tests*."), usage(930, 30, 25)),
			}},
		{name: "edit-diff", settings: settings{Mode: "auto"}, files: map[string]string{"main.go": mainGo},
			moves: []move{
				user("Make main greet the name given as its first argument"),
				model(call("call_read", "read", `{"file_path":"main.go"}`), usage(0, 900, 20)),
				model(call("call_edit", "edit", `{"file_path":"main.go","old_string":"import \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hello\")",`+
					`"new_string":"import (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tfmt.Println(\"hello\", os.Args[1])"}`), usage(896, 80, 60)),
				model(text("Done: `main` now greets `os.Args[1]`."), usage(970, 40, 12)),
			}},
		{name: "todo-plan", settings: settings{Mode: "full-access", Height: 50}, moves: []move{
			user("Prepare the release"),
			model(call("call_todo1", "todo_write", `{"todos":[{"content":"Write the changelog","status":"in_progress"},`+
				`{"content":"Tag the release","status":"pending"},{"content":"Announce it","status":"pending"}]}`), usage(0, 900, 50)),
			model(call("call_write", "write", `{"file_path":"CHANGELOG.md","content":"# Changelog\n\n## v1.0.0\n\n- First release.\n"}`), usage(896, 60, 40)),
			model(call("call_todo2", "todo_write", `{"todos":[{"content":"Write the changelog","status":"completed"},`+
				`{"content":"Tag the release","status":"in_progress"},{"content":"Announce it","status":"pending"}]}`), usage(950, 40, 50)),
			model(text("The changelog is written; tagging the release is next."), usage(990, 40, 14)),
		}},
		{name: "question-answered", settings: settings{Height: 50}, moves: []move{
			user("Add a database to the service"),
			model(call("call_ask", "ask_user_question", `{"questions":[{"id":"db","header":"Database",`+
				`"question":"Which database should the service use?","options":[`+
				`{"label":"SQLite","description":"a file next to the binary","recommended":true},`+
				`{"label":"PostgreSQL","description":"a server to run"}]},`+
				`{"id":"tables","question":"Which tables should it have?","multi_select":true,"options":[`+
				`{"label":"users"},{"label":"orders","recommended":true},{"label":"invoices","recommended":true}]}]}`), usage(0, 900, 90)),
			answer(interact.Answer{ID: "db", Selected: []string{"PostgreSQL"}},
				interact.Answer{ID: "tables", Selected: []string{"users", "orders"}, Custom: "an audit log"}),
			model(text("PostgreSQL with `users`, `orders` and an audit log table."), usage(950, 80, 16)),
		}},
		{name: "approvals", settings: settings{Mode: "ask", Height: 50}, files: map[string]string{"notes.txt": notes}, moves: []move{
			user("Show the notes, count them, then delete them"),
			model(call("call_cat", "bash", `{"command":"cat notes.txt","description":"Show the notes"}`), usage(0, 900, 20)),
			decide("bash", interact.Allow, ""),
			model(call("call_wc", "bash", `{"command":"wc -l notes.txt","description":"Count the notes"}`), usage(896, 40, 20)),
			decide("bash", interact.AllowSession, ""),
			model(call("call_rm", "bash", `{"command":"rm notes.txt","description":"Delete the notes"}`), usage(930, 40, 20)),
			decide("bash", interact.Deny, "keep the notes"),
			model(text("The notes have 2 lines; I left `notes.txt` in place, as you asked."), usage(960, 60, 20)),
		}},
		{name: "steering", settings: settings{Mode: "full-access"}, files: map[string]string{"notes.txt": notes}, moves: []move{
			user("Count the lines of notes.txt"),
			model(call("call_wc", "bash", `{"command":"wc -l < notes.txt","description":"Count the lines of the notes"}`), usage(0, 900, 20)),
			steer("Also show its first line"),
			model(call("call_head", "bash", `{"command":"head -n 1 notes.txt","description":"Show the first line of the notes"}`), usage(896, 60, 20)),
			model(text("`notes.txt` has 2 lines; the first is *buy milk*."), usage(950, 40, 16)),
		}},
		{name: "retry-after-429", moves: []move{
			user("Say hello"),
			modelFails(llmtest.RateLimited("1")),
			model(text("Hello!"), usage(0, 900, 4)),
		}},
		{name: "resumed-session", moves: []move{
			user("Remember the word tangerine"),
			model(text("Noted: **tangerine**."), usage(0, 900, 6)),
			restart(),
			user("What was the word?"),
			model(text("The word was **tangerine**."), usage(896, 30, 8)),
		}},
		{name: "compaction", settings: settings{ContextWindow: 1000}, moves: []move{
			user("Explain the plan for the database migration"),
			model(text(migrationPlan), usage(0, 700, 200)),
			user("Write the first step as a shell command"),
			model(text(migrationSummary)),
			model(text("```sh\npg_dump --format=custom --file=before.dump app\n```"), usage(0, 300, 30)),
		}},
	}
}

const migrationPlan = "The migration moves the `orders` table from MySQL to PostgreSQL in four steps.\n\n" +
	"1. **Snapshot** the current database with `pg_dump` so that nothing is lost if a step fails.\n" +
	"2. **Create** the new schema: the `orders` table keeps its columns, but `created` becomes a " +
	"`timestamptz` and `status` an enum type.\n" +
	"3. **Copy** the rows in batches of ten thousand, checking the row counts and a checksum of each " +
	"batch before the next one starts.\n" +
	"4. **Switch** the service to the new database behind a feature flag, watch the error rate for a day, " +
	"and only then drop the old table.\n\n" +
	"Each step can be run again safely: the snapshot is named by date, the schema is created only when it " +
	"is missing, and the copy resumes after the last batch it verified. The whole migration needs about " +
	"an hour of downtime-free work, and the rollback is to flip the flag back."

const migrationSummary = "## Request and Intent\nMigrate `orders` from MySQL to PostgreSQL.\n\n" +
	"## Key Concepts\nSnapshot, schema, batched copy, flagged switch.\n\n## Files and Code\nNone yet.\n\n" +
	"## Errors and Fixes\nNone.\n\n## Pending Work\nAll four steps.\n\n" +
	"## Current Work\nThe plan was explained.\n\n## Next Step\nWrite the snapshot command."
