// Command extract copies named top-level declarations out of one upstream Go
// source file into a new file, keeping only the imports those declarations use.
// It lets the corpus harness compile PicoClaw's own type declarations without
// pulling in the rest of their (non-stdlib) packages.
//
// Usage: extract -src FILE -out FILE NAME...
// A NAME is a type, const, var or func name, or "Type.Method" for a method.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"
)

func main() {
	src := flag.String("src", "", "upstream Go file to read")
	out := flag.String("out", "", "Go file to write")
	flag.Parse()
	if *src == "" || *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: extract -src FILE -out FILE NAME...")
		os.Exit(2)
	}
	if err := extract(*src, *out, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "extract:", err)
		os.Exit(1)
	}
}

func extract(srcPath, outPath string, names []string) error {
	wanted := make(map[string]bool, len(names))
	for _, name := range names {
		wanted[name] = true
	}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, srcPath, nil, 0)
	if err != nil {
		return err
	}

	found := map[string]bool{}
	var kept []ast.Decl
	for _, decl := range file.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if name := funcDeclName(d); wanted[name] {
				found[name] = true
				kept = append(kept, d)
			}
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				continue
			}
			var specs []ast.Spec
			for _, spec := range d.Specs {
				if specWanted(spec, wanted, found) {
					specs = append(specs, spec)
				}
			}
			if len(specs) > 0 {
				subset := *d
				subset.Specs = specs
				kept = append(kept, &subset)
			}
		}
	}
	var missing []string
	for name := range wanted {
		if !found[name] {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return fmt.Errorf("%s: not found: %s", srcPath, strings.Join(missing, ", "))
	}

	var buf bytes.Buffer
	fmt.Fprintf(&buf, "// Code extracted at build time from upstream %s. DO NOT EDIT.\n\n", path.Base(srcPath))
	fmt.Fprintf(&buf, "package %s\n\n", file.Name.Name)
	if imports := usedImports(file, kept); len(imports) > 0 {
		buf.WriteString("import (\n")
		for _, line := range imports {
			buf.WriteString("\t" + line + "\n")
		}
		buf.WriteString(")\n\n")
	}
	for _, decl := range kept {
		if err := printer.Fprint(&buf, fset, decl); err != nil {
			return err
		}
		buf.WriteString("\n\n")
	}
	formatted, err := format.Source(buf.Bytes())
	if err != nil {
		return fmt.Errorf("format %s: %w", outPath, err)
	}
	return os.WriteFile(outPath, formatted, 0o644)
}

func funcDeclName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	recv := d.Recv.List[0].Type
	if star, ok := recv.(*ast.StarExpr); ok {
		recv = star.X
	}
	if ident, ok := recv.(*ast.Ident); ok {
		return ident.Name + "." + d.Name.Name
	}
	return d.Name.Name
}

func specWanted(spec ast.Spec, wanted, found map[string]bool) bool {
	switch s := spec.(type) {
	case *ast.TypeSpec:
		if wanted[s.Name.Name] {
			found[s.Name.Name] = true
			return true
		}
	case *ast.ValueSpec:
		keep := false
		for _, name := range s.Names {
			if wanted[name.Name] {
				found[name.Name] = true
				keep = true
			}
		}
		return keep
	}
	return false
}

// usedImports returns the import lines of file whose package name is used as a
// selector qualifier somewhere in decls.
func usedImports(file *ast.File, decls []ast.Decl) []string {
	qualifiers := map[string]bool{}
	for _, decl := range decls {
		ast.Inspect(decl, func(node ast.Node) bool {
			if sel, ok := node.(*ast.SelectorExpr); ok {
				if ident, ok := sel.X.(*ast.Ident); ok {
					qualifiers[ident.Name] = true
				}
			}
			return true
		})
	}
	var lines []string
	for _, spec := range file.Imports {
		importPath, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			continue
		}
		name := path.Base(importPath)
		if spec.Name != nil {
			name = spec.Name.Name
		}
		if !qualifiers[name] {
			continue
		}
		if spec.Name != nil {
			lines = append(lines, spec.Name.Name+" "+spec.Path.Value)
		} else {
			lines = append(lines, spec.Path.Value)
		}
	}
	return lines
}
