// Package notice writes the NOTICE file of the release binaries: every
// module they link, its licence (recognised by its text) and the full
// licence texts, which the MIT, BSD and Apache licences ask a binary
// distribution to carry.
package notice

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Module is one linked module and its licence files.
type Module struct {
	Path, Version string
	Dir           string    // where its source is (the module cache)
	Licenses      []License // found by FindLicenses
}

// License is one licence file of a module.
type License struct {
	File string // name in the module's root
	Kind string // SPDX identifier, or "unrecognised"
	Text string
}

// Unrecognised is the Kind of a licence text Classify does not know.
const Unrecognised = "unrecognised"

// Classify names the licence a text is, by the sentences that make each
// licence what it is (whitespace and case ignored).
func Classify(text string) string {
	t := strings.ToLower(strings.Join(strings.Fields(text), " "))
	has := func(s ...string) bool {
		for _, x := range s {
			if !strings.Contains(t, x) {
				return false
			}
		}
		return true
	}
	switch {
	case has("apache license", "version 2.0"):
		return "Apache-2.0"
	case has("mozilla public license", "2.0"):
		return "MPL-2.0"
	case has("permission is hereby granted, free of charge, to any person obtaining a copy"):
		return "MIT"
	case has("permission to use, copy, modify, and/or distribute this software for any purpose with or without fee is hereby granted"),
		has("permission to use, copy, modify, and distribute this software for any purpose with or without fee is hereby granted"):
		return "ISC"
	case has("redistribution and use in source and binary forms", "neither the name"):
		return "BSD-3-Clause"
	case has("redistribution and use in source and binary forms"):
		return "BSD-2-Clause"
	case has("this is free and unencumbered software released into the public domain"):
		return "Unlicense"
	}
	return Unrecognised
}

var licenseName = regexp.MustCompile(`(?i)^(licen[cs]e|copying|unlicense)([.-].*)?$`)

// FindLicenses reads the licence files at the root of dir and classifies
// them; a module without one is an error.
func FindLicenses(dir string) ([]License, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("notice: %w", err)
	}
	var ls []License
	for _, e := range ents {
		if e.IsDir() || !licenseName.MatchString(e.Name()) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("notice: %w", err)
		}
		ls = append(ls, License{File: e.Name(), Kind: Classify(string(b)), Text: string(b)})
	}
	if len(ls) == 0 {
		return nil, fmt.Errorf("notice: no licence file in %s", dir)
	}
	return ls, nil
}

// Write writes the NOTICE for the program's own licence line and the
// linked modules (sorted by path): a summary table, then every text.
func Write(w io.Writer, header string, mods []Module) error {
	mods = slices.Clone(mods)
	slices.SortFunc(mods, func(a, b Module) int { return strings.Compare(a.Path, b.Path) })
	var b strings.Builder
	b.WriteString(header)
	b.WriteString("\n\nThe release binaries link the following modules, under these licences:\n\n")
	width := 0
	for _, m := range mods {
		width = max(width, len(m.Path)+1+len(m.Version))
	}
	for _, m := range mods {
		var kinds []string
		for _, l := range m.Licenses {
			kinds = append(kinds, l.Kind)
		}
		fmt.Fprintf(&b, "  %-*s  %s\n", width, m.Path+" "+m.Version, strings.Join(kinds, ", "))
	}
	for _, m := range mods {
		for _, l := range m.Licenses {
			fmt.Fprintf(&b, "\n\n==== %s %s: %s (%s) ====\n\n%s", m.Path, m.Version, l.File, l.Kind, strings.TrimRight(l.Text, "\n")+"\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
