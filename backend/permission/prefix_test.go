package permission

import (
	"strings"
	"testing"
)

func TestPrefixesForTakeEachProgramAndItsSubcommand(t *testing.T) {
	cases := []struct {
		command string
		want    string
		ok      bool
	}{
		{"git status", "git status", true},
		{"git status --short", "git status", true},
		{"go test ./...", "go test", true},
		{"go test ./... 2>&1", "go test", true},
		{"ls", "ls", true},
		{"ls -la", "ls", true},
		{"rm foo.txt", "", false},
		{"git status; rm x", "", false},
		{"ls && kill 123", "", false},
		{"cat /etc/hosts", "cat", true},
		{"git -C sub status", "", false}, // -C can name a repository with its own hooks
		{"git -C sub", "", false},
		{"git", "", false},
		{"make", "make", true},
		{"./gradlew build", "./gradlew build", true},
		{"'git' status", "git status", true},
		{"git status && ls", "git status, ls", true},
		{"git status | head", "git status, head", true},
		{"ls -la && cat main.go", "ls, cat", true},
		{"go build ./... && go test ./... && go build .", "go build, go test", true},
		{"cd sub && make test", "cd, make test", true},
		{"(git status; ls)", "git status, ls", true},
		{"echo $(git rev-parse HEAD)", "", false},
		{"git log $(git rev-parse HEAD)", "", false},
		{"cat README", "cat", true},
		{"FOO=1 git status", "", false},
		{"git status && FOO=1 ls", "", false},
		{"NODE_ENV=test npm test", "npm test", true},
		{"LANG=C TZ=UTC ls -la && RUST_LOG=debug cargo run", "ls, cargo run", true},
		{"NODE_ENV=test NODE_OPTIONS=--inspect npm test", "", false},
		{"NODE_ENV=$(id) npm test", "", false},
		{"$GIT status", "", false},
		{"ls && $CMD", "", false},
		{"eval git status", "", false},
		{"ls && sudo rm -rf /", "", false},
		{"bash -c 'rm x'", "", false},
		{"ls | xargs rm", "", false},
		{"for f in *; do rm $f; done", "", false},
		{"ls && git status > out.txt", "", false},
		{"git status (", "", false},
		{"", "", false},
	}
	for _, c := range cases {
		got, ok := PrefixesFor(c.command)
		if strings.Join(got, ", ") != c.want || ok != c.ok {
			t.Errorf("PrefixesFor(%q): want %q, %v; got %q, %v", c.command, c.want, c.ok, got, ok)
		}
	}
}

func TestCoveredRequiresEverySimpleCommandToMatch(t *testing.T) {
	prefixes := []string{"git status", "echo", "grep", "ls"}
	cases := []struct {
		command string
		want    bool
	}{
		{"git status", true},
		{"git status --short", true},
		{"git status -s", true},
		{"git status && curl x | sh", false},
		{"git status; rm x", false},
		{"git status || rm x", false},
		{"echo $(rm x)", false},
		{"echo `rm x`", false},
		{"echo $(git status)", true},
		{"echo ${x:-$(rm y)}", false},
		{"echo \"$(rm y)\"", false},
		{"FOO=1 git status", false},
		{"LC_ALL=C git status", true},
		{"LC_ALL=C GIT_DIR=/tmp/x git status", false},
		{"LC_ALL=$(rm x) git status", false},
		{"TZ=\"$HOME\" ls", false},
		{"timeout 5 LC_ALL=C ls", false},
		{"git statusx", false},
		{"git stash", false},
		{"git", false},
		{"git status | grep modified", true},
		{"(git status)", true},
		{"{ git status; ls; }", true},
		{"(git status; rm x)", false},
		{"git status &", true},
		{"'git' \"status\"", true},
		{"g\\it status", false},
		{"$CMD status", false},
		{"eval git status", false},
		{"exec git status", false},
		{"git status > out.txt", false},
		{"git status >> out.txt", false},
		{"git status &> out.txt", false},
		{"git status >& out.txt", false},
		{"git status > /dev/null 2>&1", true},
		{"git status 2> errors.log", false},
		{"grep x < input.txt", true},
		{"grep x <(ls)", false}, // process substitution: never covered
		{"grep x <(rm y)", false},
		{"ls >(rm y)", false},
		{"grep x <<EOF\n$(rm y)\nEOF", false},
		{"grep x <<'EOF'\n$(rm y)\nEOF", false}, // "$(" in literal text could become a subscript
		{"for f in a; do git status; done", false},
		{"if true; then git status; fi", false},
		{"f() { git status; }; f", false},
		{"[[ -e x ]] && git status", false},
		{"export X=1; git status", false},
		{"coproc git status", false},
		{"git status (", false},
		{"", false},
	}
	for _, c := range cases {
		if got := covered(c.command, prefixes); got != c.want {
			t.Errorf("covered(%q): want %v, got %v", c.command, c.want, got)
		}
	}
}

func TestCoveredWithoutPrefixesAsks(t *testing.T) {
	if covered("ls", nil) {
		t.Fatal("want false with nothing remembered, got true")
	}
}
