// Package layers states tack's dependency rules (ARCHITECTURE.md) as data
// and checks a package graph against them. Its test runs the check over
// this module with `go list -deps`, so a change that breaks a rule fails
// `go test ./...` instead of waiting for a reviewer.
//
// The arrows point down: cmd → app → overlays → views → backend, and
// cmd → linemode → backend.
package layers

import (
	"fmt"
	"slices"
	"strings"
)

// Module is the module path the rules' package names are relative to.
const Module = "github.com/tack-agent/tack"

// Rule forbids the packages under From to depend on any package under one
// of Forbidden: directly or through other packages for production code,
// directly for test files (whose kit may use what production code may
// not). Names are module-relative ("backend", "views/textfmt") or full
// import paths of other modules ("charm.land/bubbletea/v2"); a name
// covers the packages below it.
type Rule struct {
	From      string
	Forbidden []string
	// Tests extends the rule to the direct imports of From's test files.
	Tests bool
	Why   string
}

// ui are the packages of the full-screen front door and the terminal
// libraries it is made of.
var ui = []string{"app", "overlays", "views", "charm.land", "github.com/charmbracelet"}

// testOnly are packages that exist for tests.
var testOnly = []string{"snapshots"}

// Rules are tack's dependency rules.
var Rules = []Rule{
	{From: "backend", Forbidden: append(append([]string{"linemode", "cmd"}, ui...), testOnly...),
		Why: "the backend is embedded by every front door and knows none of them"},
	{From: "backend", Forbidden: []string{"app", "overlays", "views", "linemode", "cmd"}, Tests: true,
		Why: "backend tests drive the backend through its own API, not through a front door"},
	{From: "views", Forbidden: append([]string{"app", "overlays", "linemode", "cmd"}, testOnly...),
		Why: "views render blocks and rows; overlays and the root model compose them"},
	{From: "overlays", Forbidden: append([]string{"app", "linemode", "cmd"}, testOnly...),
		Why: "overlays report outcomes to the root model, which acts on them"},
	{From: "app", Forbidden: append([]string{"linemode", "cmd"}, testOnly...),
		Why: "the full-screen program is one front door; cmd picks it"},
	{From: "linemode", Forbidden: append([]string{"app", "overlays", "cmd", "charm.land/bubbletea", "charm.land/lipgloss",
		"github.com/charmbracelet/lipgloss"}, testOnly...),
		Why: "line mode is for pipes and plain terminals; it may use views' pure text helpers, nothing with bubbletea in it"},
	{From: "cmd", Forbidden: testOnly, Why: "the binary ships no test code"},
}

// Package is one node of the graph: its production dependencies (direct
// and indirect) and its test files' direct imports.
type Package struct {
	Path        string
	Deps        []string
	TestImports []string
}

// Violation is one broken rule.
type Violation struct {
	Package, Dependency string
	Test                bool
	Rule                Rule
}

func (v Violation) String() string {
	via := "depends on"
	if v.Test {
		via = "has tests importing"
	}
	return fmt.Sprintf("%s %s %s: %s", v.Package, via, v.Dependency, v.Rule.Why)
}

// Check lists every violation of rules in pkgs, in package order.
func Check(pkgs []Package, rules []Rule) []Violation {
	var out []Violation
	for _, p := range pkgs {
		for _, r := range rules {
			if !covers(r.From, p.Path) {
				continue
			}
			deps := p.Deps
			if r.Tests {
				deps = p.TestImports
			}
			for _, d := range deps {
				if slices.ContainsFunc(r.Forbidden, func(f string) bool { return covers(f, d) }) {
					out = append(out, Violation{Package: p.Path, Dependency: d, Test: r.Tests, Rule: r})
				}
			}
		}
	}
	return out
}

// covers reports whether name (module-relative or a full import path)
// names path or a package below it.
func covers(name, path string) bool {
	full := name
	if !strings.Contains(strings.SplitN(name, "/", 2)[0], ".") {
		full = Module + "/" + name
	}
	return path == full || strings.HasPrefix(path, full+"/")
}
