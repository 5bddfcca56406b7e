package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm"
)

func TestLoadReadsSettingsAndExtendsTheCatalog(t *testing.T) {
	src := `model = "qwen3"
provider = "openai"
color = false

[[models]]
id = "qwen3"
provider = "openai"
context_window = 131072
max_output = 8192
price_output = 1.5
`
	home := writeConfig(t, src)
	f, err := Load(home)
	if err != nil {
		t.Fatal(err)
	}
	if f.Model != "qwen3" || f.Provider != "openai" || f.Color == nil || *f.Color {
		t.Fatalf("settings not read: %+v", f)
	}
	c := llm.NewCatalog()
	f.Apply(c)
	m, ok := c.Lookup("qwen3")
	if !ok || m.ContextWindow != 131072 || m.Price.Output != 1.5 {
		t.Fatalf("want qwen3 in the catalog with its limits, got %+v (%v)", m, ok)
	}
}

func TestLoadRefusesBadFilesWithTheirPath(t *testing.T) {
	for name, src := range map[string]string{
		"syntax":  "model = ",
		"unknown": "modle = \"x\"",
	} {
		home := writeConfig(t, src)
		_, err := Load(home)
		if err == nil || !strings.Contains(err.Error(), Path(home)) {
			t.Errorf("%s: want an error naming %s, got %v", name, Path(home), err)
		}
	}
}

func TestMissingConfigIsEmpty(t *testing.T) {
	f, err := Load(t.TempDir())
	if err != nil || f.Model != "" {
		t.Fatalf("want an empty config, got %+v, %v", f, err)
	}
}

func TestSavedCredentialsArePrivateAndLayeredUnderTheEnvironment(t *testing.T) {
	home := filepath.Join(t.TempDir(), "tack")
	if err := SaveCredential(home, "DEEPSEEK_API_KEY", "sk-stored"); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(CredentialsPath(home))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("want mode 0600, got %v", fi.Mode().Perm())
	}
	creds, err := Credentials(home)
	if err != nil {
		t.Fatal(err)
	}
	env := Env(func(k string) string {
		if k == "OPENAI_API_KEY" {
			return "sk-env"
		}
		return ""
	}, creds)
	if env("DEEPSEEK_API_KEY") != "sk-stored" || env("OPENAI_API_KEY") != "sk-env" {
		t.Fatalf("want the stored key under an empty environment, got %q / %q", env("DEEPSEEK_API_KEY"), env("OPENAI_API_KEY"))
	}
}

func TestHomeDefaultsToDotTack(t *testing.T) {
	h, err := Home(func(k string) string {
		if k == "HOME" {
			return "/home/u"
		}
		return ""
	})
	if err != nil || h != "/home/u/.tack" {
		t.Fatalf("want /home/u/.tack, got %q, %v", h, err)
	}
	if _, err := Home(func(string) string { return "" }); err == nil {
		t.Fatal("want an error without TACK_HOME and HOME")
	}
}

func TestUnknownSettingIsNamedWithItsLineAndNearestSetting(t *testing.T) {
	for name, tc := range map[string]struct{ src, want string }{
		"top level": {"model = \"x\"\n\neffrot = \"high\"\n",
			`line 3: unknown setting "effrot" (did you mean "effort"?)`},
		"in a model table": {"model = \"x\"\n[[models]]\nid = \"x\"\ncontext_windw = 5\n",
			`line 4: unknown setting "models.context_windw" (did you mean "context_window"?)`},
		"a table":      {"model = \"x\"\n[colours]\nred = 1\n", `line 2: unknown setting "colours"`},
		"far from any": {"zzzzzzzz = 1\n", `line 1: unknown setting "zzzzzzzz"; fix or remove it`},
	} {
		home := writeConfig(t, tc.src)
		_, err := Load(home)
		if err == nil || !strings.Contains(err.Error(), Path(home)+" "+tc.want) {
			t.Errorf("%s: want an error containing %q, got %v", name, Path(home)+" "+tc.want, err)
		}
	}
}

func TestHomeThatIsAFileIsNamed(t *testing.T) {
	home := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(home, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(home)
	want := "tack home " + home + " is not a directory; set TACK_HOME to a directory tack may write"
	if err == nil || err.Error() != want {
		t.Errorf("want %q, got %v", want, err)
	}
}

func TestProvidersTableAddsAndChangesProviders(t *testing.T) {
	src := `base_url = "http://proxy.example/v1"

[[providers]]
name = "local"
base_url = "http://127.0.0.1:8080/v1"
model = "qwen3"

[[providers]]
name = "openrouter"
base_url = "https://openrouter.ai/api/v1"
key_env = "OPENROUTER_API_KEY"
profile = "openai-compatible"

[[providers]]
name = "deepseek"
key_env = "MY_DEEPSEEK_KEY"

[[models]]
id = "qwen3"
provider = "local"
reasoning = "deepseek"
images = true
max_output = 8192
`
	home := writeConfig(t, src)
	f, err := Load(home)
	if err != nil {
		t.Fatal(err)
	}
	list := f.ProviderList("deepseek")
	if got := strings.Join(list.Names(), " "); got != "deepseek openai local openrouter" {
		t.Fatalf("want the built-ins then the new entries, got %s", got)
	}
	ds, _ := list.Find("deepseek")
	if ds.KeyEnv != "MY_DEEPSEEK_KEY" || ds.BaseURL != "http://proxy.example/v1" || ds.Profile != llm.ProfileDeepSeek || ds.Model != llm.DefaultModel {
		t.Errorf("want the deepseek entry to change only its key variable and base_url to apply to it, got %+v", ds)
	}
	local, _ := list.Find("local")
	if local.Profile != llm.ProfileOpenAICompatible || local.KeyEnv != "" || local.Model != "qwen3" {
		t.Errorf("want a keyless openai-compatible local provider, got %+v", local)
	}
	c := llm.NewCatalog()
	f.Apply(c)
	m, ok := c.Lookup("local/qwen3")
	if !ok || m.Reasoning != llm.ReasoningDeepSeek || !m.Images || m.MaxOutput != 8192 {
		t.Errorf("want local/qwen3 with DeepSeek reasoning and images, got %+v %v", m, ok)
	}
	if !c.IsProvider("openrouter") {
		t.Error("want openrouter a provider refs may name")
	}
}

func TestConfiguredModelChangesOnlyWhatItSets(t *testing.T) {
	f := File{Models: []Model{{ID: "deepseek-v4-pro", ContextWindow: 500_000}}}
	c := llm.NewCatalog()
	f.Apply(c)
	m, _ := c.Lookup("deepseek-v4-pro")
	if m.ContextWindow != 500_000 || m.Price.CacheMiss != 1.32 || m.Provider != "deepseek" || m.DefaultEffort != llm.EffortHigh {
		t.Errorf("want the window changed and the rest kept, got %+v", m)
	}
}

func TestBadProviderEntriesAreRefusedWithWhatToDo(t *testing.T) {
	for name, tc := range map[string]struct{ src, want string }{
		"no name":     {"[[providers]]\nbase_url = \"http://x\"\n", "[[providers]] entry 1 has no name"},
		"slash":       {"[[providers]]\nname = \"a/b\"\n", `provider name "a/b" may not hold '/'`},
		"twice":       {"[[providers]]\nname = \"a\"\n[[providers]]\nname = \"a\"\n", `provider "a" is defined twice`},
		"profile":     {"[[providers]]\nname = \"a\"\nprofile = \"vllm\"\n", `provider a: unknown profile "vllm": use deepseek, openai, openai-compatible`},
		"reasoning":   {"[[models]]\nid = \"m\"\nreasoning = \"yes\"\n", `model m: unknown reasoning style "yes": use none, effort, deepseek`},
		"unknown key": {"[[providers]]\nname = \"a\"\nkey_ev = \"x\"\n", `unknown setting "providers.key_ev" (did you mean "key_env"?)`},
		"model no id": {"[[models]]\nname = \"x\"\n", "a [[models]] entry has no id"},
	} {
		home := writeConfig(t, tc.src)
		if _, err := Load(home); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), Path(home)) {
			t.Errorf("%s: want an error naming the file and %q, got %v", name, tc.want, err)
		}
	}
}

func TestCheckpointsTableIsReadAndChecked(t *testing.T) {
	home := t.TempDir()
	write := func(s string) {
		if err := os.WriteFile(Path(home), []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("[checkpoints]\nenabled = false\nmax_file_bytes = 1048576\nkeep_turns = 20\n")
	f, err := Load(home)
	if err != nil {
		t.Fatal(err)
	}
	c := f.Checkpoints
	if c.On() || c.MaxFileBytes != 1<<20 || c.Turns() != 20 || c.Days() != DefaultKeepDays {
		t.Errorf("want checkpoints off, 1 MiB, 20 turns and the default days, got %+v", c)
	}
	write("[checkpoints]\nkeep_days = -1\n")
	if _, err := Load(home); err == nil || !strings.Contains(err.Error(), "keep_days is -1") {
		t.Errorf("want a negative keep_days refused by name, got %v", err)
	}
}

func TestThemeAndNotifyTakeTheirChoices(t *testing.T) {
	for src, want := range map[string]string{`theme = "light"`: "", `theme = "auto"`: "", `theme = "solarized"`: "want auto, dark or light",
		`notify = "loud"`: "want bell, osc9 or off"} {
		home := writeConfig(t, src)
		f, err := Load(home)
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: want it read, got %v", src, err)
		case want == "" && f.Theme == "":
			t.Errorf("%s: want the theme kept, got none", src)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: want an error with %q, got %v", src, want, err)
		}
	}
}
