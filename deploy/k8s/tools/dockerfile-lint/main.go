// dockerfile-lint runs BuildKit's own Dockerfile linter (the rules of `docker build --check`,
// experimental ones included) over each Dockerfile named on the command line, then a few checks of
// this project's image policy that BuildKit does not make:
//
//   - every image a target produces runs as a numeric, non-root USER (Kubernetes can only verify
//     runAsNonRoot against a numeric user) and sets NODE_ENV=production;
//   - every external base image carries an explicit tag or digest, never "latest";
//   - no ADD (it fetches URLs and unpacks archives; COPY says what it does);
//   - every file git tracks under a folder a COPY takes from the build context is in the context
//     (.dockerignore is an allow-list: a file it leaves out is missing from the image silently).
//
// It prints one line per finding and exits 1 if there is any, 2 if a file cannot be read or parsed.
// No Docker engine and no network are needed.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"strings"

	"github.com/moby/buildkit/client/llb"
	"github.com/moby/buildkit/client/llb/sourceresolver"
	"github.com/moby/buildkit/frontend/dockerfile/dockerfile2llb"
	"github.com/moby/buildkit/frontend/dockerfile/instructions"
	"github.com/moby/buildkit/frontend/dockerfile/parser"
	"github.com/moby/buildkit/frontend/dockerfile/shell"
	"github.com/moby/buildkit/solver/pb"
	digest "github.com/opencontainers/go-digest"
	ocispecs "github.com/opencontainers/image-spec/specs-go/v1"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: dockerfile-lint Dockerfile...")
		os.Exit(2)
	}
	findings := 0
	for _, path := range os.Args[1:] {
		n, err := lintFile(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", path, err)
			os.Exit(2)
		}
		findings += n
	}
	if findings > 0 {
		fmt.Printf("dockerfile-lint: %d finding(s)\n", findings)
		os.Exit(1)
	}
	fmt.Printf("dockerfile-lint: %d file(s) clean\n", len(os.Args)-1)
}

func lintFile(path string) (int, error) {
	dt, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	findings := 0
	report := func(line int, rule, detail string) {
		findings++
		fmt.Printf("%s:%d: %s: %s\n", path, line, rule, detail)
	}

	// BuildKit's rules. No target means every stage is checked.
	sourceMap := llb.NewSourceMap(nil, path, "Dockerfile", dt)
	sourceMap.Definition = &llb.Definition{}
	results, err := dockerfile2llb.DockerfileLint(context.Background(), dt, dockerfile2llb.ConvertOpt{
		SourceMap:    sourceMap,
		MetaResolver: offlineResolver{},
	})
	if err != nil {
		return 0, err
	}
	// With `# check=error=true` the warnings also come back as one summary error; they are
	// reported one by one below, so only a different error (a parse failure) is reported here.
	if results.Error != nil && !strings.HasPrefix(results.Error.Message, "lint violation found for rules") {
		report(firstLine(&results.Error.Location), "BuildError", results.Error.Message)
	}
	for _, w := range results.Warnings {
		report(firstLine(w.Location), w.RuleName, fmt.Sprintf("%s (%s)", w.Detail, w.URL))
	}

	// The project's policy.
	ast, err := parser.Parse(bytes.NewReader(dt))
	if err != nil {
		return 0, err
	}
	stages, metaArgs, err := instructions.Parse(ast.AST, nil)
	if err != nil {
		return 0, err
	}
	args := map[string]string{}
	for _, a := range metaArgs {
		for _, kv := range a.Args {
			if kv.Value != nil {
				args[kv.Key] = *kv.Value
			}
		}
	}
	lex := shell.NewLex('\\')
	byName := map[string]int{}
	usedAsSource := map[string]bool{}
	for i, s := range stages {
		byName[strings.ToLower(s.Name)] = i
	}
	for _, s := range stages {
		usedAsSource[strings.ToLower(s.BaseName)] = true
		for _, c := range s.Commands {
			if cp, ok := c.(*instructions.CopyCommand); ok && cp.From != "" {
				usedAsSource[strings.ToLower(cp.From)] = true
			}
		}
	}

	for _, s := range stages {
		line := 0
		if len(s.Location) > 0 {
			line = s.Location[0].Start.Line
		}
		if _, internal := byName[strings.ToLower(s.BaseName)]; !internal {
			image, err := lex.ProcessWordWithMatches(s.BaseName, shell.EnvsFromSlice(envList(args)))
			if err != nil {
				return 0, err
			}
			if !pinned(image.Result) {
				report(line, "BaseImageTag", fmt.Sprintf("base image %q needs an explicit tag or digest other than latest", image.Result))
			}
		}
		for _, c := range s.Commands {
			if add, ok := c.(*instructions.AddCommand); ok {
				report(add.Location()[0].Start.Line, "NoAdd", "use COPY; ADD fetches URLs and unpacks archives")
			}
		}
	}

	gaps, err := contextGaps(path, stages)
	if err != nil {
		return 0, err
	}
	for _, g := range gaps {
		report(g.line, "ContextMissing", fmt.Sprintf("%s is under COPY %s but .dockerignore leaves it out of the build context", g.file, g.source))
	}

	// Final images: named stages no other stage builds on or copies from.
	for _, s := range stages {
		if s.Name == "" || usedAsSource[strings.ToLower(s.Name)] {
			continue
		}
		line := 0
		if len(s.Location) > 0 {
			line = s.Location[0].Start.Line
		}
		user, nodeEnv := effective(stages, byName, s)
		if !nonRootNumeric.MatchString(user) {
			report(line, "NonRootUser", fmt.Sprintf("target %q runs as %q; want a numeric non-root USER such as 65532:65532", s.Name, user))
		}
		if nodeEnv != "production" {
			report(line, "NodeEnvProduction", fmt.Sprintf("target %q has NODE_ENV=%q; want production", s.Name, nodeEnv))
		}
	}
	return findings, nil
}

// offlineResolver stands in for the registry: every base image "exists" for the platform asked
// for, with one layer and no configuration, so linting never touches the network.
type offlineResolver struct{}

func (offlineResolver) ResolveImageConfig(_ context.Context, ref string, opt sourceresolver.Opt) (string, digest.Digest, []byte, error) {
	platform := ocispecs.Platform{OS: "linux", Architecture: runtime.GOARCH}
	if opt.ImageOpt != nil && opt.ImageOpt.Platform != nil {
		platform = *opt.ImageOpt.Platform
	}
	config, err := json.Marshal(map[string]any{
		"os":           platform.OS,
		"architecture": platform.Architecture,
		"rootfs":       map[string]any{"type": "layers", "diff_ids": []string{digest.FromString(ref).String()}},
		"config":       map[string]any{},
	})
	return ref, "", config, err
}

func firstLine(loc *pb.Location) int {
	if ranges := loc.GetRanges(); len(ranges) > 0 {
		return int(ranges[0].GetStart().GetLine())
	}
	return 0
}

var nonRootNumeric = regexp.MustCompile(`^[1-9][0-9]*(:[0-9]+)?$`)

// pinned: has a digest, or a tag that is not "latest" (a registry port is not a tag).
func pinned(image string) bool {
	if strings.Contains(image, "@sha256:") {
		return true
	}
	last := image[strings.LastIndex(image, "/")+1:]
	i := strings.LastIndex(last, ":")
	return i >= 0 && last[i+1:] != "" && last[i+1:] != "latest"
}

// effective follows a stage's chain of internal bases and returns the last USER and NODE_ENV set
// along it (an external base image's own USER is not known here, so it counts as unset).
func effective(stages []instructions.Stage, byName map[string]int, s instructions.Stage) (user, nodeEnv string) {
	chain := []instructions.Stage{s}
	for {
		i, ok := byName[strings.ToLower(chain[0].BaseName)]
		if !ok {
			break
		}
		chain = append([]instructions.Stage{stages[i]}, chain...)
	}
	for _, st := range chain {
		for _, c := range st.Commands {
			switch cmd := c.(type) {
			case *instructions.UserCommand:
				user = cmd.User
			case *instructions.EnvCommand:
				for _, kv := range cmd.Env {
					if kv.Key == "NODE_ENV" {
						nodeEnv = kv.Value
					}
				}
			}
		}
	}
	return user, nodeEnv
}

func envList(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	return out
}
