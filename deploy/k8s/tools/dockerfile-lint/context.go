package main

import (
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	"github.com/moby/buildkit/frontend/dockerfile/instructions"
	"github.com/moby/patternmatcher"
	"github.com/moby/patternmatcher/ignorefile"
)

// contextGaps lists the files a COPY from the build context names (a whole folder: every file git
// tracks under it) that .dockerignore, an allow-list here, leaves out of the context: such a file is
// missing from the image without any error (web/public/ once was, and every avatar answered 404).
// Tests and Markdown are never built from, so they may stay out.
func contextGaps(dockerfile string, stages []instructions.Stage) ([]contextGap, error) {
	dir := filepath.Dir(dockerfile)
	matcher, err := dockerignore(dir)
	if err != nil {
		return nil, err
	}
	var gaps []contextGap
	for _, s := range stages {
		for _, c := range s.Commands {
			cp, ok := c.(*instructions.CopyCommand)
			if !ok || cp.From != "" {
				continue
			}
			for _, source := range cp.SourcePaths {
				files, err := tracked(dir, source)
				if err != nil {
					return nil, err
				}
				for _, file := range files {
					if !builtFrom(file) {
						continue
					}
					excluded, err := matcher.MatchesOrParentMatches(file)
					if err != nil {
						return nil, err
					}
					if excluded {
						gaps = append(gaps, contextGap{line: cp.Location()[0].Start.Line, source: source, file: file})
					}
				}
			}
		}
	}
	return gaps, nil
}

type contextGap struct {
	line         int
	source, file string
}

func dockerignore(dir string) (*patternmatcher.PatternMatcher, error) {
	f, err := os.Open(filepath.Join(dir, ".dockerignore"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	patterns, err := ignorefile.ReadAll(f)
	if err != nil {
		return nil, err
	}
	return patternmatcher.New(patterns)
}

// tracked: the files git tracks at or under source, relative to dir.
func tracked(dir, source string) ([]string, error) {
	out, err := exec.Command("git", "-C", dir, "ls-files", "-z", "--", source).Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files %s: %w", source, err)
	}
	var files []string
	for _, file := range strings.Split(string(out), "\x00") {
		if file != "" {
			files = append(files, file)
		}
	}
	return files, nil
}

func builtFrom(file string) bool {
	if strings.HasSuffix(file, ".md") {
		return false
	}
	for _, segment := range strings.Split(path.Dir(file), "/") {
		if segment == "test" {
			return false
		}
	}
	return true
}
