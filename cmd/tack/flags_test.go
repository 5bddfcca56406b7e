package main

import (
	"strings"
	"testing"
)

func TestFlagsMayFollowTheTask(t *testing.T) {
	o, err := parseFlags([]string{"fix", "the", "test", "--model", "deepseek-v4-pro", "-C", "sub"}, func(string) string { return "" })
	if err != nil {
		t.Fatalf("want flags after the task parsed, got %v", err)
	}
	if o.task != "fix the test" || o.model != "deepseek-v4-pro" || o.dir != "sub" {
		t.Fatalf("want task %q, model and dir set, got task %q, model %q, dir %q", "fix the test", o.task, o.model, o.dir)
	}
}

func TestEverythingAfterDoubleDashIsTheTask(t *testing.T) {
	o, err := parseFlags([]string{"--model", "m", "--", "explain", "--model"}, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if o.task != "explain --model" || o.model != "m" {
		t.Fatalf("want task %q and model m, got task %q, model %q", "explain --model", o.task, o.model)
	}
}

func TestPrintMistakesAreUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-p", ""}, "--print needs a task"},
		{[]string{"--print", "  "}, "--print needs a task"},
		{[]string{"-p", "fix", "the", "test"}, `unexpected argument "the" after -p TASK`},
	} {
		_, err := parseFlags(c.args, func(string) string { return "" })
		if _, ok := err.(errUsage); !ok || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: want a usage error containing %q, got %v", c.args, c.want, err)
		}
	}
	o, err := parseFlags([]string{"-p", "fix it", "--model", "m"}, func(string) string { return "" })
	if err != nil || o.print != "fix it" || o.model != "m" {
		t.Fatalf("want -p TASK with a flag after it accepted, got %+v, %v", o, err)
	}
}
