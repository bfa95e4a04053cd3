package notice

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	for text, want := range map[string]string{
		"MIT License\n\nPermission is hereby granted, free of charge, to any person\nobtaining a copy of this software":           "MIT",
		"Redistribution and use in source and binary forms, with or without\nmodification... Neither the name of Google":          "BSD-3-Clause",
		"Redistribution and use in source and binary forms, with or without modification, are permitted":                          "BSD-2-Clause",
		"                                 Apache License\n                           Version 2.0, January 2004":                   "Apache-2.0",
		"Permission to use, copy, modify, and/or distribute this software for any\npurpose with or without fee is hereby granted": "ISC",
		"Mozilla Public License Version 2.0\n==================================":                                                  "MPL-2.0",
		"All rights reserved. Do not copy.": Unrecognised,
	} {
		if got := Classify(text); got != want {
			t.Errorf("Classify(%.40q) = %s, want %s", text, got, want)
		}
	}
}

func TestFindLicensesAndWrite(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"LICENSE":    "Permission is hereby granted, free of charge, to any person obtaining a copy\n",
		"COPYING.md": "Redistribution and use in source and binary forms\n",
		"README.md":  "not a licence",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ls, err := FindLicenses(dir)
	if err != nil || len(ls) != 2 || ls[0].File != "COPYING.md" || ls[0].Kind != "BSD-2-Clause" || ls[1].Kind != "MIT" {
		t.Fatalf("%+v %v", ls, err)
	}
	if _, err := FindLicenses(t.TempDir()); err == nil {
		t.Error("a module without a licence passed")
	}
	var b strings.Builder
	err = Write(&b, "prog: MIT", []Module{{Path: "z.org/b", Version: "v1.0.0", Licenses: ls[1:]}, {Path: "a.org/a", Version: "v0.2.0", Licenses: ls[:1]}})
	if err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"prog: MIT\n", "  a.org/a v0.2.0  BSD-2-Clause\n  z.org/b v1.0.0  MIT\n", "==== a.org/a v0.2.0: COPYING.md (BSD-2-Clause) ===="} {
		if !strings.Contains(out, want) {
			t.Errorf("NOTICE lacks %q:\n%s", want, out)
		}
	}
	if strings.Index(out, "a.org/a v0.2.0:") > strings.Index(out, "z.org/b v1.0.0:") {
		t.Error("texts not in module order")
	}
}
