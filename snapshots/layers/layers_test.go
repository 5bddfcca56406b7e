package layers

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// modulePackages lists this module's packages with `go list -deps`: every
// package's production dependencies and its test files' imports.
func modulePackages(t *testing.T) []Package {
	t.Helper()
	cmd := exec.Command("go", "list", "-json=ImportPath,Deps,TestImports,XTestImports", "./...")
	cmd.Dir = "../.."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []Package
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath                      string
			Deps, TestImports, XTestImports []string
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("decode go list output: %v", err)
		}
		pkgs = append(pkgs, Package{Path: p.ImportPath, Deps: p.Deps, TestImports: append(p.TestImports, p.XTestImports...)})
	}
	return pkgs
}

func TestTheModuleKeepsItsDependencyRules(t *testing.T) {
	pkgs := modulePackages(t)
	if len(pkgs) < 20 {
		t.Fatalf("want the module's packages from go list, got %d", len(pkgs))
	}
	for _, v := range Check(pkgs, Rules) {
		t.Error(v)
	}
}

func TestEveryRuleCatchesWhatItForbids(t *testing.T) {
	m := Module + "/"
	graph := []Package{
		{Path: m + "backend/tools/search", Deps: []string{"regexp", "charm.land/lipgloss/v2", m + "views/theme"},
			TestImports: []string{m + "snapshots/testkit/golden", m + "app"}},
		{Path: m + "views/editor", Deps: []string{m + "overlays/help", m + "backend/card"}},
		{Path: m + "overlays/help", Deps: []string{m + "app"}},
		{Path: m + "linemode", Deps: []string{m + "views/textfmt", "charm.land/bubbletea/v2"}},
		{Path: m + "app", Deps: []string{m + "snapshots/testkit/keys"}},
		{Path: m + "backendx", Deps: []string{m + "app"}}, // not under backend
	}
	var got []string
	for _, v := range Check(graph, Rules) {
		got = append(got, strings.TrimPrefix(v.Package, m)+" → "+strings.TrimPrefix(v.Dependency, m))
	}
	want := []string{
		"backend/tools/search → charm.land/lipgloss/v2",
		"backend/tools/search → views/theme",
		"backend/tools/search → app",
		"views/editor → overlays/help",
		"overlays/help → app",
		"linemode → charm.land/bubbletea/v2",
		"app → snapshots/testkit/keys",
	}
	if !slices.Equal(got, want) {
		t.Errorf("want violations\n%s\ngot\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
}
