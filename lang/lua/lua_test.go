package lua

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/lang/langtest"
)

// A module in the style of Penlight's lua/pl/*.lua: a local table, its
// functions stored as M.f, a class with methods T:m, a local helper, a
// function table constructor, requires with and without parentheses.
const plStyle = `--- String utilities.
-- @module pl.stringx
local utils = require 'pl.utils'
local List = require("pl.List")
local compat = require "pl.compat"
local stringx = {}

local function assert_string(n, s)
    utils.assert_arg(n, s, 'string')
end

--- does s start with prefix?
-- @string s the string
function stringx.startswith(s, prefix)
    assert_string(1, s)
    return s:find(prefix, 1, true) == 1
end

stringx.lstrip = function(s, chrs)
    return (s:gsub('^%s+', ''))
end

local Template = {}
Template.__index = Template

function Template:substitute(tbl)
    return self:safe_substitute(tbl)
end

local ops = {
    add = function(a, b) return a + b end,
    sub = function(a, b) return a - b end,
}

return stringx
`

func TestExtract(t *testing.T) {
	f := langtest.Extract(t, "lua/pl/stringx.lua", plStyle)
	var got []string
	for _, s := range f.Symbols[1:] {
		got = append(got, fmt.Sprintf("%s %s %d-%d %s", s.Kind, s.Qualified(), s.Range.StartLine, s.Range.EndLine, s.Visibility))
	}
	want := []string{
		"variable stringx 6-6 private",
		"function assert_string 8-10 private",
		"function stringx.startswith 14-17 public",
		"function stringx.lstrip 19-21 public",
		"variable Template 23-23 private",
		"method Template.substitute 26-28 public",
		"variable ops 30-33 private",
		"function ops.add 31-31 public",
		"function ops.sub 32-32 public",
	}
	if !slices.Equal(got, want) {
		t.Errorf("symbols:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	if f.Module != "lua.pl.stringx" {
		t.Errorf("module %q, want lua.pl.stringx", f.Module)
	}
	var imps []string
	for _, imp := range f.Imports {
		imps = append(imps, imp.Alias+"="+imp.Source)
	}
	if want := "utils=pl.utils List=pl.List compat=pl.compat"; strings.Join(imps, " ") != want {
		t.Errorf("imports %q, want %q", imps, want)
	}
	for _, s := range f.Symbols {
		if s.Name == "startswith" {
			if s.Doc != "does s start with prefix?\n@string s the string" {
				t.Errorf("doc %q", s.Doc)
			}
			if len(s.Signature.Params) != 2 || s.Signature.Params[1].Name != "prefix" {
				t.Errorf("params %+v", s.Signature.Params)
			}
		}
	}
	var refs []string
	for _, r := range f.Refs {
		refs = append(refs, fmt.Sprintf("%s:%s.%s", f.Symbols[r.Symbol].Name, r.Qualifier, r.Name))
	}
	want = []string{"assert_string:utils.assert_arg", "startswith:.assert_string", "startswith:s.find",
		"lstrip:s.gsub", "substitute:self.safe_substitute"}
	if !slices.Equal(refs, want) {
		t.Errorf("refs %q, want %q", refs, want)
	}
}

func TestModuleAndTests(t *testing.T) {
	if f := langtest.Extract(t, "lua/pl/init.lua", "return {}\n"); f.Module != "lua.pl" {
		t.Errorf("init.lua module %q, want lua.pl", f.Module)
	}
	for p, want := range map[string]bool{"spec/stringx_spec.lua": true, "lua/x_spec.lua": true, "tests/a.lua": true, "lua/pl/app.lua": false} {
		if f := langtest.Extract(t, p, "local function f() end\n"); f.IsTest != want || f.Symbols[1].IsTest != want {
			t.Errorf("%s: test %v, want %v", p, f.IsTest, want)
		}
		// query and serve leave tests out by the same patterns
		if lang.IsTestPath(p) != want {
			t.Errorf("lang.IsTestPath(%s) = %v, want %v", p, !want, want)
		}
	}
}

// TestReceivers: a receiver that is not a path of names (a call's result,
// an index, a chain) is an unknown one, written ?.
func TestReceivers(t *testing.T) {
	f := langtest.Extract(t, "a.lua", "local function f(doc, t)\n  doc:add('x'):addtag('y')\n  t[1]:run()\n  doc.body.nodes:walk()\nend\n")
	var got []string
	for _, r := range f.Refs {
		got = append(got, r.Qualifier+":"+r.Name)
	}
	if want := []string{"doc:add", "?:addtag", "?:run", "doc.body.nodes:walk"}; !slices.Equal(got, want) {
		t.Errorf("refs %q, want %q", got, want)
	}
}

// TestLocals: as Kong writes them, a local name given a function is a
// private function whose signature says local, and functions stored in a
// table built inside a function (a busted test's mock strategy, a
// metatable's __index) are no symbols: Kong's dao spec held twenty
// strategy.select. A table of the file's top level keeps its functions.
func TestLocals(t *testing.T) {
	src := `local DAO = require "kong.db.dao"

local inject_tool_calls = function(tool_calls)
  return tool_calls
end

local handlers = {
  access = function(conf) return conf end,
}

describe("DAO", function()
  it("applies defaults", function()
    local strategy = {
      select = function()
        return { a = 42 }
      end,
    }
    local dao = DAO.new(strategy)
    setmetatable({}, { __index = function(_, k) return dao[k] end })
  end)
end)
`
	f := langtest.Extract(t, "spec/01-unit/04-dao_spec.lua", src)
	var got []string
	for _, s := range f.Symbols[1:] {
		got = append(got, fmt.Sprintf("%s %s %s %q", s.Kind, s.Qualified(), s.Visibility, s.Signature.Text))
	}
	want := []string{
		`function inject_tool_calls private "local inject_tool_calls = function(tool_calls)"`,
		`variable handlers private "local handlers = {"`,
		`function handlers.access public "access = function(conf)"`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("symbols:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	// the mock's and __index's calls are the file's own
	var refs []string
	for _, r := range f.Refs {
		refs = append(refs, fmt.Sprintf("%s:%s.%s", f.Symbols[r.Symbol].Name, r.Qualifier, r.Name))
	}
	if want := []string{"04-dao_spec:.describe", "04-dao_spec:.it", "04-dao_spec:DAO.new", "04-dao_spec:.setmetatable"}; !slices.Equal(refs, want) {
		t.Errorf("refs %q, want %q", refs, want)
	}
}
