package search

import (
	"maps"
	"slices"
	"strings"
)

// fileTypes are the file types grep's type takes, each as the globs on a
// file's name that ripgrep 14.1.1 gives it: the ripgrep Claude Code's Grep
// runs, so that a model trained on it finds the same files by the same
// name. TestGrepTypesAgreeWithRipgrep holds the table to ripgrep.
var fileTypes = map[string][]string{
	"c":        {"*.[chH]", "*.[chH].in", "*.cats"},
	"clojure":  {"*.clj", "*.cljc", "*.cljs", "*.cljx"},
	"cmake":    {"*.cmake", "CMakeLists.txt"},
	"cpp":      {"*.[ChH]", "*.[ChH].in", "*.[ch]pp", "*.[ch]pp.in", "*.[ch]xx", "*.[ch]xx.in", "*.cc", "*.cc.in", "*.hh", "*.hh.in", "*.inl"},
	"cs":       {"*.cs"},
	"csharp":   {"*.cs"},
	"css":      {"*.css", "*.scss"},
	"csv":      {"*.csv"},
	"dart":     {"*.dart"},
	"diff":     {"*.diff", "*.patch"},
	"docker":   {"*Dockerfile*"},
	"elixir":   {"*.eex", "*.ex", "*.exs", "*.heex", "*.leex", "*.livemd"},
	"erlang":   {"*.erl", "*.hrl"},
	"fsharp":   {"*.fs", "*.fsi", "*.fsx"},
	"go":       {"*.go"},
	"graphql":  {"*.graphql", "*.graphqls"},
	"haskell":  {"*.c2hs", "*.cpphs", "*.hs", "*.hsc", "*.lhs"},
	"html":     {"*.ejs", "*.htm", "*.html"},
	"java":     {"*.java", "*.jsp", "*.jspx", "*.properties"},
	"js":       {"*.cjs", "*.js", "*.jsx", "*.mjs", "*.vue"},
	"json":     {"*.json", "*.sarif", "composer.lock"},
	"jsonl":    {"*.jsonl"},
	"kotlin":   {"*.kt", "*.kts"},
	"less":     {"*.less"},
	"log":      {"*.log"},
	"lua":      {"*.lua"},
	"make":     {"*.mak", "*.mk", "[Gg][Nn][Uu]makefile", "[Gg][Nn][Uu]makefile.am", "[Gg][Nn][Uu]makefile.in", "[Mm]akefile", "[Mm]akefile.am", "[Mm]akefile.in"},
	"markdown": {"*.markdown", "*.md", "*.mdown", "*.mdwn", "*.mdx", "*.mkd", "*.mkdn"},
	"md":       {"*.markdown", "*.md", "*.mdown", "*.mdwn", "*.mdx", "*.mkd", "*.mkdn"},
	"ocaml":    {"*.ml", "*.mli", "*.mll", "*.mly"},
	"perl":     {"*.PL", "*.perl", "*.pl", "*.plh", "*.plx", "*.pm", "*.t"},
	"php":      {"*.php", "*.php3", "*.php4", "*.php5", "*.php7", "*.php8", "*.pht", "*.phtml"},
	"protobuf": {"*.proto"},
	"py":       {"*.py", "*.pyi"},
	"r":        {"*.R", "*.Rmd", "*.Rnw", "*.r"},
	"ruby":     {"*.gemspec", "*.rb", "*.rbw", ".irbrc", "Gemfile", "Rakefile", "config.ru"},
	"rust":     {"*.rs"},
	"sass":     {"*.sass", "*.scss"},
	"scala":    {"*.sbt", "*.scala"},
	"sh":       {"*.bash", "*.bashrc", "*.csh", "*.cshrc", "*.ksh", "*.kshrc", "*.sh", "*.tcsh", "*.zsh", ".bash_login", ".bash_logout", ".bash_profile", ".bashrc", ".cshrc", ".kshrc", ".login", ".logout", ".profile", ".tcshrc", ".zlogin", ".zlogout", ".zprofile", ".zshenv", ".zshrc", "bash_login", "bash_logout", "bash_profile", "bashrc", "profile", "zlogin", "zlogout", "zprofile", "zshenv", "zshrc"},
	"sql":      {"*.psql", "*.sql"},
	"svelte":   {"*.svelte"},
	"swift":    {"*.swift"},
	"tf":       {"*.auto.tfvars", "*.auto.tfvars.json", "*.terraform.lock.hcl", "*.terraformrc", "*.tf", "*.tf.json", "*.tfrc", "terraform.rc", "terraform.tfvars", "terraform.tfvars.json"},
	"toml":     {"*.toml", "Cargo.lock"},
	"ts":       {"*.cts", "*.mts", "*.ts", "*.tsx"},
	"txt":      {"*.txt"},
	"vim":      {"*.vim", ".gvimrc", ".vimrc", "_gvimrc", "_vimrc", "gvimrc", "vimrc"},
	"vue":      {"*.vue"},
	"xml":      {"*.dtd", "*.rng", "*.sch", "*.xhtml", "*.xjb", "*.xml", "*.xml.dist", "*.xsd", "*.xsl", "*.xslt"},
	"yaml":     {"*.yaml", "*.yml"},
	"zig":      {"*.zig"},
	"zsh":      {"*.zsh", ".zlogin", ".zlogout", ".zprofile", ".zshenv", ".zshrc", "zlogin", "zlogout", "zprofile", "zshenv", "zshrc"},
}

// typeAliases are names models also use for a type, which ripgrep itself
// refuses.
var typeAliases = map[string]string{
	"proto": "protobuf", "python": "py", "rb": "ruby", "rs": "rust", "typescript": "ts",
}

// typeGlobs are the globs of the type named t, in any case, or false when
// there is no such type.
func typeGlobs(t string) ([]string, bool) {
	t = strings.ToLower(t)
	globs, ok := fileTypes[cmpOr(typeAliases[t], t)]
	return globs, ok
}

func typeNames() []string {
	return slices.Sorted(maps.Keys(fileTypes))
}
