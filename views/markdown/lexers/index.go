package lexers

import "github.com/alecthomas/chroma/v2"

// index is the header of every definition here, what chroma needs to find
// a lexer by name, alias or file name, so that finding one reads no XML.
// TestIndexMatchesTheDefinitions keeps it equal to the files.
var index = []struct {
	file   string
	config chroma.Config
}{
	{file: "bash.xml", config: chroma.Config{Name: "Bash", Aliases: []string{"bash", "sh", "ksh", "zsh", "shell"}, Filenames: []string{"*.sh", "*.ksh", "*.bash", "*.ebuild", "*.eclass", ".env", ".env.*", "*.env", "*.exheres-0", "*.exlib", "*.zsh", "*.zshrc", ".bashrc", "bashrc", ".bash_*", "bash_*", "zshrc", ".zshrc", "APKBUILD", "PKGBUILD"}}},
	{file: "bash_session.xml", config: chroma.Config{Name: "Bash Session", Aliases: []string{"bash-session", "console", "shell-session"}, Filenames: []string{"*.sh-session"}}},
	{file: "c#.xml", config: chroma.Config{Name: "C#", Aliases: []string{"csharp", "c#"}, Filenames: []string{"*.cs"}}},
	{file: "c++.xml", config: chroma.Config{Name: "C++", Aliases: []string{"cpp", "c++"}, Filenames: []string{"*.cpp", "*.hpp", "*.c++", "*.h++", "*.cc", "*.hh", "*.cxx", "*.hxx", "*.C", "*.H", "*.cp", "*.CPP", "*.tpp"}}},
	{file: "c.xml", config: chroma.Config{Name: "C", Aliases: []string{"c"}, Filenames: []string{"*.c", "*.h", "*.idc", "*.x[bp]m"}}},
	{file: "cmake.xml", config: chroma.Config{Name: "CMake", Aliases: []string{"cmake"}, Filenames: []string{"*.cmake", "CMakeLists.txt"}}},
	{file: "css.xml", config: chroma.Config{Name: "CSS", Aliases: []string{"css"}, Filenames: []string{"*.css"}}},
	{file: "dart.xml", config: chroma.Config{Name: "Dart", Aliases: []string{"dart"}, Filenames: []string{"*.dart"}}},
	{file: "diff.xml", config: chroma.Config{Name: "Diff", Aliases: []string{"diff", "udiff"}, Filenames: []string{"*.diff", "*.patch"}}},
	{file: "docker.xml", config: chroma.Config{Name: "Docker", Aliases: []string{"docker", "dockerfile", "containerfile"}, Filenames: []string{"Dockerfile", "Dockerfile.*", "*.Dockerfile", "*.docker", "Containerfile", "Containerfile.*", "*.Containerfile"}}},
	{file: "elixir.xml", config: chroma.Config{Name: "Elixir", Aliases: []string{"elixir", "ex", "exs"}, Filenames: []string{"*.ex", "*.eex", "*.exs"}}},
	{file: "fish.xml", config: chroma.Config{Name: "Fish", Aliases: []string{"fish", "fishshell"}, Filenames: []string{"*.fish", "*.load"}}},
	{file: "go_template.xml", config: chroma.Config{Name: "Go Template", Aliases: []string{"go-template"}, Filenames: []string{"*.gotmpl", "*.go.tmpl"}}},
	{file: "graphql.xml", config: chroma.Config{Name: "GraphQL", Aliases: []string{"graphql", "graphqls", "gql"}, Filenames: []string{"*.graphql", "*.graphqls"}}},
	{file: "groovy.xml", config: chroma.Config{Name: "Groovy", Aliases: []string{"groovy"}, Filenames: []string{"*.groovy", "*.gradle"}}},
	{file: "haskell.xml", config: chroma.Config{Name: "Haskell", Aliases: []string{"haskell", "hs"}, Filenames: []string{"*.hs"}}},
	{file: "hcl.xml", config: chroma.Config{Name: "HCL", Aliases: []string{"hcl"}, Filenames: []string{"*.hcl"}}},
	{file: "html.xml", config: chroma.Config{Name: "HTML", Aliases: []string{"html"}, Filenames: []string{"*.html", "*.htm", "*.xhtml", "*.xslt"}}},
	{file: "ini.xml", config: chroma.Config{Name: "INI", Aliases: []string{"ini", "cfg", "dosini"}, Filenames: []string{"*.ini", "*.cfg", "*.inf", "*.service", "*.socket", "*.container", "*.network", "*.build", "*.pod", "*.kube", "*.volume", "*.image", ".gitconfig", ".editorconfig", "pylintrc", ".pylintrc"}, Priority: 0.1}},
	{file: "java.xml", config: chroma.Config{Name: "Java", Aliases: []string{"java"}, Filenames: []string{"*.java"}}},
	{file: "javascript.xml", config: chroma.Config{Name: "JavaScript", Aliases: []string{"js", "javascript"}, Filenames: []string{"*.js", "*.jsm", "*.mjs", "*.cjs"}}},
	{file: "json.xml", config: chroma.Config{Name: "JSON", Aliases: []string{"json", "jsonl"}, Filenames: []string{"*.json", "*.jsonl", "*.jsonc", "*.json5", "*.avsc", ".luaurc"}}},
	{file: "kotlin.xml", config: chroma.Config{Name: "Kotlin", Aliases: []string{"kotlin"}, Filenames: []string{"*.kt", "*.kts"}}},
	{file: "lua.xml", config: chroma.Config{Name: "Lua", Aliases: []string{"lua"}, Filenames: []string{"*.lua", "*.wlua"}}},
	{file: "makefile.xml", config: chroma.Config{Name: "Makefile", Aliases: []string{"make", "makefile", "mf", "bsdmake"}, Filenames: []string{"*.mak", "*.mk", "Makefile", "makefile", "Makefile.*", "GNUmakefile", "BSDmakefile", "Justfile", "justfile", ".justfile"}}},
	{file: "nix.xml", config: chroma.Config{Name: "Nix", Aliases: []string{"nixos", "nix"}, Filenames: []string{"*.nix"}}},
	{file: "objective-c.xml", config: chroma.Config{Name: "Objective-C", Aliases: []string{"objective-c", "objectivec", "obj-c", "objc"}, Filenames: []string{"*.m", "*.h"}}},
	{file: "perl.xml", config: chroma.Config{Name: "Perl", Aliases: []string{"perl", "pl"}, Filenames: []string{"*.pl", "*.pm", "*.t"}}},
	{file: "php.xml", config: chroma.Config{Name: "PHP", Aliases: []string{"php", "php3", "php4", "php5"}, Filenames: []string{"*.php", "*.php[345]", "*.inc"}, Priority: 3}},
	{file: "plaintext.xml", config: chroma.Config{Name: "plaintext", Aliases: []string{"text", "plain", "no-highlight"}, Filenames: []string{"*.txt"}, Priority: -1}},
	{file: "postgresql_sql_dialect.xml", config: chroma.Config{Name: "PostgreSQL SQL dialect", Aliases: []string{"postgresql", "postgres"}}},
	{file: "powershell.xml", config: chroma.Config{Name: "PowerShell", Aliases: []string{"powershell", "posh", "ps1", "psm1", "psd1", "pwsh"}, Filenames: []string{"*.ps1", "*.psm1", "*.psd1"}}},
	{file: "protocol_buffer.xml", config: chroma.Config{Name: "Protocol Buffer", Aliases: []string{"protobuf", "proto"}, Filenames: []string{"*.proto"}}},
	{file: "python.xml", config: chroma.Config{Name: "Python", Aliases: []string{"python", "py", "sage", "python3", "py3", "starlark"}, Filenames: []string{"*.py", "*.pyi", "*.pyw", "*.jy", "*.sage", "*.sc", "SConstruct", "SConscript", "*.bzl", "BUCK", "BUILD", "BUILD.bazel", "WORKSPACE", "WORKSPACE.bzlmod", "WORKSPACE.bazel", "MODULE.bazel", "REPO.bazel", "*.star", "*.tac"}}},
	{file: "r.xml", config: chroma.Config{Name: "R", Aliases: []string{"splus", "s", "r"}, Filenames: []string{"*.S", "*.R", "*.r", ".Rhistory", ".Rprofile", ".Renviron"}, Priority: 0.1}},
	{file: "react.xml", config: chroma.Config{Name: "react", Aliases: []string{"jsx", "react"}, Filenames: []string{"*.jsx", "*.react"}}},
	{file: "ruby.xml", config: chroma.Config{Name: "Ruby", Aliases: []string{"rb", "ruby", "duby"}, Filenames: []string{"*.rb", "*.rbw", "Rakefile", "*.rake", "*.gemspec", "*.rbx", "*.duby", "Gemfile", "*.gemfile", "Vagrantfile", "Appraisals", ".pryrc", "*.json.jbuilder"}}},
	{file: "rust.xml", config: chroma.Config{Name: "Rust", Aliases: []string{"rust", "rs"}, Filenames: []string{"*.rs", "*.rs.in"}}},
	{file: "scala.xml", config: chroma.Config{Name: "Scala", Aliases: []string{"scala"}, Filenames: []string{"*.scala"}}},
	{file: "scss.xml", config: chroma.Config{Name: "SCSS", Aliases: []string{"scss"}, Filenames: []string{"*.scss"}}},
	{file: "sql.xml", config: chroma.Config{Name: "SQL", Aliases: []string{"sql"}, Filenames: []string{"*.sql"}}},
	{file: "swift.xml", config: chroma.Config{Name: "Swift", Aliases: []string{"swift"}, Filenames: []string{"*.swift"}}},
	{file: "terraform.xml", config: chroma.Config{Name: "Terraform", Aliases: []string{"terraform", "tf", "hcl"}, Filenames: []string{"*.tf", "*.hcl"}}},
	{file: "toml.xml", config: chroma.Config{Name: "TOML", Aliases: []string{"toml"}, Filenames: []string{"*.toml", "Pipfile", "poetry.lock", "uv.lock"}}},
	{file: "typescript.xml", config: chroma.Config{Name: "TypeScript", Aliases: []string{"ts", "tsx", "typescript"}, Filenames: []string{"*.ts", "*.tsx", "*.mts", "*.cts"}}},
	{file: "xml.xml", config: chroma.Config{Name: "XML", Aliases: []string{"xml"}, Filenames: []string{"*.xml", "*.xsl", "*.rss", "*.xslt", "*.xsd", "*.wsdl", "*.wsf", "*.svg", "*.qrc", "*.csproj", "*.vcxproj", "*.fsproj"}}},
	{file: "yaml.xml", config: chroma.Config{Name: "YAML", Aliases: []string{"yaml"}, Filenames: []string{"*.yaml", "*.yml"}}},
	{file: "zig.xml", config: chroma.Config{Name: "Zig", Aliases: []string{"zig"}, Filenames: []string{"*.zig", "*.zon"}}},
}
