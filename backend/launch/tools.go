package launch

import (
	"github.com/tack-agent/tack/backend/config"
	"github.com/tack-agent/tack/backend/permission"
	"github.com/tack-agent/tack/backend/sandbox"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/backend/tools/ask"
	"github.com/tack-agent/tack/backend/tools/bash"
	"github.com/tack-agent/tack/backend/tools/fs"
	"github.com/tack-agent/tack/backend/tools/plan"
	"github.com/tack-agent/tack/backend/tools/search"
	"github.com/tack-agent/tack/backend/tools/todo"
	"github.com/tack-agent/tack/backend/workspace"
)

// Tools is the default tool set of one session, in the order the model sees
// them, and its shell, whose Close ends their background work. exit_plan_mode
// leaves plan mode through policy; glob and grep search the files files
// lists; commands start from environ and run in sb, and policy asks the
// user to let a refused one out of it; read refuses the credentials file of
// tackHome. ask_user_question is there when someone answers questions.
func Tools(policy *permission.Policy, files *workspace.Walker, environ []string, sb *sandbox.Sandbox, tackHome string, questions bool) (*tools.Registry, *bash.Tools) {
	sh := bash.New(bash.Local{Sandbox: sb}, bash.Options{Environ: environ, Sandbox: sb, Escalator: policy})
	r := tools.NewRegistry(fs.New(fs.NewTracker(), config.CredentialsPath(tackHome))...)
	r.Add(search.NewGlob(files))
	r.Add(search.NewGrep(files))
	for _, t := range sh.All() {
		r.Add(t)
	}
	r.Add(todo.New())
	if questions {
		r.Add(ask.New())
	}
	r.Add(plan.New(policy))
	return r, sh
}
