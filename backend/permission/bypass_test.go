package permission

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The forms below hide a command where a shell parser reads literal text,
// or run one through an option of a program a prefix was remembered for.
// Real bash is the oracle: each form is first run with bash to show that
// it does run the hidden command (a form this bash does not run is
// reported, not counted), and then the matcher must refuse it whatever was
// remembered.

// hiddenForms hide CMD in arithmetic, subscripts and expansions.
var hiddenForms = []string{
	`ls $(( '$(CMD)' ))`,
	`ls $[ '$(CMD)' ]`,
	`ls -la $(( '` + "`CMD`" + `' ))`,
	`ls $(( 1 + '$(CMD)' ))`,
	`ls $(( a['$(CMD)'] ))`,
	`ls ${a['$(CMD)']}`,
	`ls ${a[$(CMD)]}`,
	`git status ${x[$(CMD)]}`,
	`go test $(( '$(CMD)' )) ./...`,
	`cat $(( '$(CMD)' ))`,
	`ls ${BASH_COMMAND@P} '$(CMD)'`,
	`test -v 'a[$(CMD)]'`,
	`printf -v 'a[$(CMD)]' x`,
	`read -r 'a[$(CMD)]' <<< x`,
	`ls ${x:-$(CMD)}`,
	`ls "${x:-` + "`CMD`" + `}"`,
	`ls <(CMD)`,
	"ls `CMD`",
}

// hiddenPrefixes are the prefixes remembered against hiddenForms.
var hiddenPrefixes = []string{"ls", "git status", "go test", "cat", "test", "printf", "read"}

// optionForms run CMD through an option or form of a remembered program.
var optionForms = []struct{ form, needs string }{
	{`git -c core.pager='CMD #' log -1`, "git"},
	{`git -c alias.x='!CMD' x`, "git"},
	{`git log -1 --output=pwned`, "git"},
	{`go test -exec 'sh -c "CMD" --' ./nonexistent`, "go"},
	{`go build -toolexec 'sh -c "CMD" --' ./nonexistent`, "go"},
	{`find . -maxdepth 0 -exec sh -c 'CMD' \;`, "find"},
	{`find ./nothing-here -delete`, "find"},
	{`sed -n 's/x/CMD/e' <<< x`, "sed"},
	{`sed -n '1e CMD' <<< x`, "sed"},
	{`sed -n 'w pwned' <<< x`, "sed"},
	{`sed -i s/a/b/ f`, "sed"},
	{`awk 'BEGIN{system("CMD")}'`, "awk"},
	{`awk 'BEGIN{print "x" | "sh"}'`, "awk"},
	{`rg --pre 'sh' x .`, "rg"},
	{`python3 -c 'import os; os.system("CMD")'`, "python3"},
	{`tar -cf /dev/null --checkpoint=1 --checkpoint-action=exec='CMD' .`, "tar"},
}

// optionPrefixes are the prefixes remembered against optionForms.
var optionPrefixes = []string{"git log", "git x", "go test", "go build", "find", "sed", "awk", "rg", "python3", "tar"}

const marker = "touch pwned"

// bashRuns reports whether real bash runs the hidden marker of form, in a
// fresh directory holding a git repository (for the git forms).
func bashRuns(t *testing.T, form string) bool {
	t.Helper()
	dir := t.TempDir()
	git := exec.Command("git", "init", "-q")
	git.Dir = dir
	_ = git.Run()
	cmd := exec.Command("bash", "-c", strings.ReplaceAll(form, "CMD", marker))
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "GIT_CONFIG_NOSYSTEM=1", "GOFLAGS=-mod=mod"}
	_ = cmd.Run()
	_, err := os.Stat(filepath.Join(dir, "pwned"))
	return err == nil
}

func TestBypassFormsRunCodeInBashAndNoRememberedPrefixCoversThem(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed: the forms need it as the oracle")
	}
	ran := 0
	for _, form := range hiddenForms {
		if bashRuns(t, form) {
			ran++
		} else {
			t.Logf("this bash does not run the hidden command of %q", form)
		}
		command := strings.ReplaceAll(form, "CMD", marker)
		if covered(command, hiddenPrefixes) {
			t.Errorf("covered(%q, %q): want refused, the command runs code the parser cannot see", command, hiddenPrefixes)
		}
		if p, ok := PrefixesFor(command); ok {
			t.Errorf("PrefixesFor(%q): want nothing offered to remember, got %q", command, p)
		}
	}
	if ran < len(hiddenForms)/2 {
		t.Fatalf("want most forms to run their hidden command in real bash, %d of %d did", ran, len(hiddenForms))
	}
}

func TestDangerousOptionsAreNeverCoveredByTheirPrefix(t *testing.T) {
	for _, c := range optionForms {
		command := strings.ReplaceAll(c.form, "CMD", marker)
		if _, err := exec.LookPath(c.needs); err == nil && !bashRuns(t, c.form) {
			t.Logf("%q did not run its marker here (it may need files it lacks); the matcher must refuse it anyway", command)
		}
		if covered(command, optionPrefixes) {
			t.Errorf("covered(%q): want refused, the option runs or writes beyond its prefix", command)
		}
	}
	for _, command := range []string{"git log -1 --oneline", "go test ./...", "find . -name '*.go'", "sed -n 1,5p f",
		"sed 's/a/b/g' f", "awk '{print $1}' f", "rg -n x", "python3 script.py", "tar -tf x.tar"} {
		if !covered(command, optionPrefixes) {
			t.Errorf("covered(%q): want the plain use of a remembered program covered", command)
		}
	}
}

func TestProgramsWithSubcommandsAreNeverRememberedAlone(t *testing.T) {
	for _, command := range []string{"git -C x status", "git --no-pager", "go", "npm", "docker ps"} {
		if p, ok := PrefixesFor(command); ok {
			t.Errorf("PrefixesFor(%q): want nothing remembered, got %q", command, p)
		}
	}
	if covered("git push --force", []string{"git status"}) || covered("git reset --hard", []string{"git status"}) {
		t.Error("want git status to cover only git status")
	}
}

// A deny rule for a program is held to what real bash runs: every form
// above that bash runs the marker through (touch, hidden in arithmetic or
// an expansion, run by git, find, sed, awk, python, a shell or a wrapper,
// or named another way: by its path, quoted, escaped) is refused by
// Bash(touch *) and by the rule that names touch by its path, and the plain
// uses of other programs are not.
func TestDenyRulesRefuseEveryFormThatBashRunsTheProgramThrough(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed: the forms need it as the oracle")
	}
	denies := []string{"Bash(touch *)"}
	if touch, err := exec.LookPath("touch"); err == nil {
		denies = append(denies, "Bash("+touch+" *)")
	}
	forms := append(slices.Clone(hiddenForms), `sh -c 'CMD'`, `bash -c "CMD"`, `echo x | xargs CMD`, `env CMD`,
		`timeout 5 CMD`, `eval 'CMD'`, `/usr/bin/CMD`, `/bin/CMD`, `/usr/bin/../bin/CMD`, `\CMD`, `'touch' pwned`,
		`t\ouch pwned`, `"$(command -v touch)" pwned`, `command CMD`, `nohup CMD`, `nice CMD`, `time CMD`,
		`stdbuf -o0 CMD`, `FOO=1 CMD`, `x=$(CMD)`, `{ CMD; }`, `(CMD)`, `true && CMD`, `false || CMD`)
	for _, c := range optionForms {
		if strings.Contains(c.form, "CMD") { // the others write the marker's file themselves
			forms = append(forms, c.form)
		}
	}
	var ran []string
	for _, form := range forms {
		if bashRuns(t, form) {
			ran = append(ran, strings.ReplaceAll(form, "CMD", marker))
		}
	}
	if len(ran) < len(forms)/2 {
		t.Fatalf("want most forms to run touch in real bash, %d of %d did", len(ran), len(forms))
	}
	for _, rule := range denies {
		deny := []string{rule}
		for _, command := range ran {
			if refusing(deny, subject{tool: "bash", command: command}) == "" {
				t.Errorf("bash runs touch through %q, and %s let it run", command, rule)
			}
		}
		for _, command := range []string{"ls -la", "git status", "echo touch", "go test ./...", "find . -name '*.go'",
			"sed -n 1,5p f", "for i in 1 2; do echo $i; done", "echo $((1+2))", "ls /usr/bin/touch"} {
			if refusing(deny, subject{tool: "bash", command: command}) != "" {
				t.Errorf("%s refused %q, which runs no touch", rule, command)
			}
		}
	}
}

// An allow rule with wildcards is held to real bash as remembered
// prefixes are: no form above that bash runs hidden code through is
// allowed by the rules for its visible programs.
func TestAllowRulesNeverCoverWhatBashRunsBeyondThem(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed: the forms need it as the oracle")
	}
	var allow []string
	for _, p := range append(slices.Clone(hiddenPrefixes), optionPrefixes...) {
		allow = append(allow, "Bash("+p+" *)")
	}
	forms := slices.Clone(hiddenForms)
	for _, c := range optionForms {
		forms = append(forms, c.form)
	}
	for _, form := range forms {
		command := strings.ReplaceAll(form, "CMD", marker)
		if !bashRuns(t, form) {
			t.Logf("%q did not run its marker here; the rules must not allow it anyway", command)
		}
		if entry := allowing(allow, subject{tool: "bash", command: command}); entry != "" {
			t.Errorf("%s allows %q, which runs or writes beyond it", entry, command)
		}
	}
}

// A rule that names a whole line (a pipe, a list) allows that line, with
// harmless variables set to literals in front of its commands too, and
// nothing bash would run beyond it: another command, a value bash
// expands, or another variable that makes a program run code (git's
// GIT_CONFIG_* here).
func TestALineRuleAllowsNothingBashRunsBeyondTheLine(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed: the forms need it as the oracle")
	}
	rules := []string{"Bash(ls -a | head -3)", "Bash(git status | head -3)"}
	for _, command := range []string{"ls -a | head -3", "ls -a  |  head -3", "NODE_ENV=test ls -a | LANG=C head -3",
		"NO_COLOR=1 TERM=dumb git status | head -3"} {
		if allowing(rules, subject{tool: "bash", command: command}) == "" {
			t.Errorf("%q did not allow %q", rules, command)
		}
	}
	allowsNone(t, rules, []string{"ls -a | head -3; CMD", "ls -a | head -3 && CMD", "ls -a | head -3\nCMD", "ls -a | head -3 & CMD",
		"ls -a | CMD", "ls -a | head -3 | CMD", "CMD | ls -a | head -3", "ls -a | head -3 $(CMD)", "ls -a | head -3 `CMD`",
		"ls -a | head -3 > pwned", "{ ls -a | head -3; } > pwned", "ls -a | head -3 || CMD",
		"NODE_ENV=$(CMD) ls -a | head -3", `ls -a | TZ="$(CMD)" head -3`, "NODE_ENV=test ls -a | head -3; CMD",
		"NODE_ENV=test ls -a | CMD", "LANG=C ls -a | head -3 > pwned", "NODE_ENV=`CMD` ls -a | head -3",
		`TERM=dumb GIT_CONFIG_PARAMETERS="'core.fsmonitor'='CMD #'" git status | head -3`,
		"NODE_ENV=test GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='CMD #' git status | head -3"})
}

// A rule that names a command's variable assignments allows them and
// nothing bash would run beyond them.
func TestAnAssigningRuleAllowsNothingBashRunsBeyondIt(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed: the forms need it as the oracle")
	}
	rules := []string{"Bash(LC_ALL=C ls *)", "Bash(LC_ALL=* ls *)"}
	if allowing(rules, subject{tool: "bash", command: "LC_ALL=C ls -la"}) == "" {
		t.Errorf("%s did not allow LC_ALL=C ls -la", rules[0])
	}
	allowsNone(t, rules, []string{"LC_ALL=C CMD", "LC_ALL=$(CMD) ls", "LC_ALL=`CMD` ls", "LC_ALL=C X=$(CMD) ls",
		"X=$(CMD) LC_ALL=C ls", "LC_ALL=C ls $(CMD)", "LC_ALL=C ls; CMD", "LC_ALL=C ls > pwned", "LC_ALL=C a[$(CMD)]=1 ls"})
}

// harmlessForms run CMD through a command that sets harmless variables.
var harmlessForms = []string{"NODE_ENV=$(CMD) ls", "NODE_ENV=`CMD` ls", `TZ="$(CMD)" ls`, "LANG=${x:-$(CMD)} ls",
	"NODE_ENV=test CMD", "NODE_ENV=test ls; CMD", "NODE_ENV=test ls $(CMD)", "NODE_ENV=test ls > pwned",
	"NODE_ENV=test GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='CMD #' git status",
	`TERM=dumb GIT_CONFIG_PARAMETERS="'core.fsmonitor'='CMD #'" git status`}

// A rule that names no assignments, a remembered prefix and plan mode's
// read-only commands allow those of harmless variables set to literals,
// and nothing bash would run beyond them: a value bash expands, another command, or another variable
// that makes the program run code (git's GIT_CONFIG_* here).
func TestHarmlessAssignmentsAllowNothingBashRunsBeyondThem(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed: the forms need it as the oracle")
	}
	rules, prefixes := []string{"Bash(ls *)", "Bash(git status *)"}, []string{"ls", "git status"}
	for _, command := range []string{"NODE_ENV=test ls -a", "LANG=C TZ='Europe/Paris' ls", "NO_COLOR=1 timeout 5 git status"} {
		if allowing(rules, subject{tool: "bash", command: command}) == "" {
			t.Errorf("%q did not allow %q", rules, command)
		}
	}
	if !covered("NODE_ENV=test ls -a && LANG=C git status", prefixes) {
		t.Errorf("remembered %q did not cover harmless assignments", prefixes)
	}
	allowsNone(t, rules, harmlessForms)
	for _, form := range harmlessForms {
		command := strings.ReplaceAll(form, "CMD", marker)
		if covered(command, prefixes) {
			t.Errorf("remembered %q cover %q, which runs beyond them", prefixes, command)
		}
		if readOnlyCommand(command) {
			t.Errorf("plan mode takes %q for read-only, and it runs or writes beyond ls and git status", command)
		}
	}
}

// Rules cover a line between them, each command by one rule, and nothing
// bash would run beyond the commands they name.
func TestRulesTogetherAllowNothingBashRunsBeyondThem(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed: the forms need it as the oracle")
	}
	rules := []string{"Bash(ls *)", "Bash(head *)"}
	for _, command := range []string{"ls -a | head -3", "ls && head -1 f", "ls; head -1 f 2>&1"} {
		if allowing(rules, subject{tool: "bash", command: command}) == "" {
			t.Errorf("%q did not allow %q", rules, command)
		}
	}
	allowsNone(t, rules, []string{"ls | head; CMD", "ls && CMD", "ls | head | CMD", "CMD | head", "ls & CMD", "ls\nCMD",
		"ls $(CMD) | head", "ls | head > pwned", "ls | head $(CMD)"})
}

// Allowing looks through timeout, nice, nohup, stdbuf, command and time,
// and through nothing bash would run besides the command they wrap.
func TestAllowRulesLookThroughWrappersAndNothingElse(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed: the forms need it as the oracle")
	}
	rules := []string{"Bash(ls *)"}
	for _, command := range []string{"timeout 5 ls -a", "nice nohup ls", "time ls", "command ls", "stdbuf -o0 ls"} {
		if allowing(rules, subject{tool: "bash", command: command}) == "" {
			t.Errorf("%s did not allow %q", rules[0], command)
		}
	}
	allowsNone(t, rules, []string{"timeout 5 CMD", "timeout -k$(CMD) 5 ls", "timeout 5 sh -c 'CMD'", "nice -n $(CMD) ls",
		"time CMD", "nohup CMD", "command CMD", "stdbuf -o0 CMD", "timeout 5 ls; CMD", "time ls; CMD", "timeout 5 ls $(CMD)",
		"timeout 5 env CMD", "nice --adjustment=$(CMD) ls"})
}

// allowsNone checks that rules allow none of forms (CMD standing for the
// marker), and that real bash runs the marker through most of them.
func allowsNone(t *testing.T, rules, forms []string) {
	t.Helper()
	ran := 0
	for _, form := range forms {
		command := strings.ReplaceAll(form, "CMD", marker)
		if bashRuns(t, form) {
			ran++
		} else {
			t.Logf("%q did not run its marker here; the rules must not allow it anyway", command)
		}
		if entry := allowing(rules, subject{tool: "bash", command: command}); entry != "" {
			t.Errorf("%s allows %q, which runs beyond it", entry, command)
		}
	}
	if ran < len(forms)/2 {
		t.Fatalf("want most forms to run touch in real bash, %d of %d did", ran, len(forms))
	}
}
