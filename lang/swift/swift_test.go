package swift

import (
	"slices"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/lang/langtest"
)

func TestExtract(t *testing.T) {
	f := langtest.Extract(t, "Sources/Shop/Store.swift", `import Foundation
import class UIKit.UIView

/// Prices things.
public protocol Priced {
    func price() -> Int
}

open class Store: Base, Priced {
    private var items: [Item] = []
    let repo: Repo
    init(repo: Repo) { self.repo = repo; super.init() }
    public func price() -> Int {
        guard !items.isEmpty else { return 0 }
        let r = Repo()
        r.save(1)
        self.repo.load("a")
        func inner(_ y: Int) -> Int { y + 1 }
        return inner(2)
    }
    func fetch(url: String, retries n: Int = 3, _ rest: Int...) async throws -> String {
        throw StoreError.missing
    }
    func each(_ f: (Int) throws -> Void) rethrows { try f(1) }
}

extension Store { func helper() {} }

enum Color { case red, green }
`)
	if f.Module != "Shop" {
		t.Errorf("module %q", f.Module)
	}
	if s := langtest.Sym(t, f, "Priced"); s.Kind != lang.KindInterface || s.Doc != "Prices things." || !s.Exported {
		t.Errorf("Priced = %+v", s)
	}
	if s := langtest.Sym(t, f, "Priced.price"); s.Kind != lang.KindMethod || !s.Exported || s.Signature.Returns != "Int" {
		t.Errorf("Priced.price = %+v", s)
	}
	if s := langtest.Sym(t, f, "Store.items"); s.Visibility != lang.VisPrivate || s.Signature.Returns != "[Item]" {
		t.Errorf("items = %+v", s)
	}
	if s := langtest.Sym(t, f, "Store.init"); s.Kind != lang.KindConstructor || s.Visibility != lang.VisInternal {
		t.Errorf("init = %+v", s)
	}
	fetch := langtest.Sym(t, f, "Store.fetch")
	ps := fetch.Signature.Params
	if len(ps) != 3 || ps[1].Name != "n" || ps[1].Default != "3" || !ps[2].Variadic || fetch.Signature.Returns != "String" ||
		!slices.Contains(fetch.Signature.Modifiers, "async") || !slices.Contains(fetch.Signature.Modifiers, "throws") {
		t.Errorf("fetch = %+v", fetch.Signature)
	}
	if m := langtest.Sym(t, f, "Store.each").Signature.Modifiers; !slices.Contains(m, "rethrows") || slices.Contains(m, "throws") {
		t.Errorf("each's modifiers %v, want rethrows and not throws", m)
	}
	if got := langtest.FactTexts(langtest.Sym(t, f, "Store.price").Invariants); len(got) != 1 || !strings.Contains(got[0], "items.isEmpty") {
		t.Errorf("guards %v", got)
	}
	if s := langtest.Sym(t, f, "Store.helper"); s.Kind != lang.KindMethod {
		t.Errorf("extension member = %+v", s)
	}
	langtest.Sym(t, f, "Store.price.inner")
	langtest.Sym(t, f, "Color.red")
	langtest.WantAll(t, langtest.Imports(f), "Foundation@1", "UIKit names=UIView@2")
	var refs []string
	for _, r := range f.Refs {
		refs = append(refs, r.Kind+" "+r.Qualifier+"."+r.Name+" qt="+r.QualifierType)
	}
	langtest.WantAll(t, refs, "extends .Base qt=", "implements .Priced qt=", "new .Repo qt=", "call r.save qt=Repo",
		"call self.repo.load qt=Store", "call .inner qt=", "new .Base qt=Base")
}

// An attribute with an empty argument list (swift-argument-parser's
// @Option(), swift-testing's @Test()) parses without errors, and the text
// the symbols keep is the file's, pair included.
func TestEmptyAttributeArguments(t *testing.T) {
	src := `struct Bar: ParsableArguments {
  @Option() var name: String
  @Flag(name: .long) var verbose = false
}

struct Tests {
  @Test() func parses() throws {
    let s = "@keep() in a string"
    _ = s
  }
  @MainActor() func render() {}
}
`
	f := langtest.Extract(t, "Tests/BarTests.swift", src)
	for _, q := range []string{"Bar.name", "Bar.verbose", "Tests.parses", "Tests.render"} {
		langtest.Sym(t, f, q)
	}
	if sig := langtest.Sym(t, f, "Tests.parses").Signature.Text; !strings.Contains(sig, "parses()") {
		t.Errorf("signature %q lost the function's own parentheses", sig)
	}
	if got := string(fixup([]byte(src))); len(got) != len(src) ||
		!strings.Contains(got, "@Option   var") || !strings.Contains(got, `"@keep() in`) ||
		!strings.Contains(got, "@Flag(name: .long)") {
		t.Errorf("fixup:\n%s", got)
	}
}

// An extension of an array type is Array's; each name of "case a, b" is a
// constant spanning the case, not its raw value; an operator named by
// punctuation makes no symbol, and its result type is no name.
func TestExtensionOfArrayAndCases(t *testing.T) {
	f := langtest.Extract(t, "Sources/Core/Headers.swift", `struct Header: Equatable {
    enum Kind: String { case plain = "p", folded; case other }
    static func == (lhs: Header, rhs: Header) -> Bool { true }
}
extension [Header] {
    func index(of name: String) -> Int? { nil }
}
`)
	if s := langtest.Sym(t, f, "Array.index"); s.Kind != lang.KindMethod {
		t.Errorf("Array.index = %+v", s)
	}
	for _, q := range []string{"Header.Kind.plain", "Header.Kind.folded", "Header.Kind.other"} {
		if s := langtest.Sym(t, f, q); s.Signature.Returns != "Kind" {
			t.Errorf("%s = %+v", q, s)
		}
	}
	if got := langtest.Symbols(f); len(got) != 6 {
		t.Errorf("symbols %v", got)
	}
}

// Valid Swift the pinned grammar misread, each from TCA: the empty tuple
// as a value, CasePaths' prefix "/", a "$" inside a macro's identifier, and
// an #if among a declaration's attributes. The file parses without errors,
// the names are the file's, and the deprecated overload keeps its doc
// comment and a signature that is not its @available attributes.
func TestFixupComposableArchitecture(t *testing.T) {
	src := `struct Store {
  var _$id: Int { 1 }
  let didSet = CurrentValueRelay<Void>(())
  init() { self.init(internal: ()) }
  func send() -> Void { relay.send(()); return () }
  func scope() { BindingReducer(action: /Action.view) }
  typealias V = ()
  let r = /Hello.x/
  func run(_ g: (Int, ()) -> Void) { g(1, ()) }

  /// Sends with an animation.
  #if Deprecations
    @available(*, deprecated, message: "use 'send' (not this)")
  #else
    @available(
      iOS,
      deprecated: 9999
    )
  #endif
  @discardableResult
  public func send(animation: Int) -> Int { 0 }

  #if Deprecations
    @available(*, deprecated, renamed: "scope(_:)")
  #endif
  public func scoped(state: Int) -> Int { 0 }
}
`
	f := langtest.Extract(t, "Sources/Core/Store.swift", src)
	langtest.Sym(t, f, "Store._$id")
	for _, s := range f.Symbols {
		if s.Name == "send" && len(s.Signature.Params) == 1 {
			if s.Doc != "Sends with an animation." {
				t.Errorf("doc %q", s.Doc)
			}
			if want := "@discardableResult public func send(animation: Int) -> Int"; s.Signature.Text != want {
				t.Errorf("signature %q, want %q", s.Signature.Text, want)
			}
			if n := len(slices.DeleteFunc(slices.Clone(s.Signature.Modifiers), func(m string) bool { return m != "@available" })); n != 2 {
				t.Errorf("modifiers %v, want both @available", s.Signature.Modifiers)
			}
		}
	}
	if s := langtest.Sym(t, f, "Store.scoped"); s.Signature.Text != "public func scoped(state: Int) -> Int" {
		t.Errorf("scoped's signature %q", s.Signature.Text)
	}
	got := string(fixup([]byte(src)))
	for _, want := range []string{"Relay<Void>([])", "init(internal: [])", "send([]); return []", "typealias V = ()",
		"action:  Action.view", "/Hello.x/", "(Int, ()) -> Void", "g(1, [])", "var __id", `"use 'send' (not this)"`} {
		if !strings.Contains(got, want) {
			t.Errorf("fixup lacks %q:\n%s", want, got)
		}
	}
	if len(got) != len(src) || strings.Contains(got, "#if") || strings.Contains(got, "#endif") {
		t.Errorf("fixup:\n%s", got)
	}
}

// A directive among a type's members leaves a zero-width ERROR before it
// (tree-sitter-swift#514), which is no parse error: the grammar reads the
// directive and keeps the members. From TCA's EnumReducerMacroTests (an
// enum, nested #if, #elseif, #else) and Kingfisher's Indicator (a class).
// An ERROR with width still counts: Alamofire's #error in a class body.
func TestDirectiveInTypeBody(t *testing.T) {
	f := langtest.Extract(t, "Tests/Features/FeatureTests.swift", `enum TestEnumReducer_CompilerDirective {
  @Reducer
  enum Feature {
    case child(ChildFeature)

    #if os(macOS)
      case mac(ChildFeature)
    #elseif os(iOS)
      case phone(ChildFeature)
    #else
      case other(ChildFeature)
    #endif

    #if DEBUG
      #if INNER
        case inner(ChildFeature)
      #endif
    #endif
  }
}

final class ActivityIndicator: Indicator {

    #if os(macOS)
    private let activityIndicatorView: NSProgressIndicator
    #else
    private let activityIndicatorView: UIActivityIndicatorView
    #endif
    private var animatingCount = 0
}
`)
	for _, q := range []string{"child", "mac", "phone", "other", "inner"} {
		langtest.Sym(t, f, "TestEnumReducer_CompilerDirective.Feature."+q)
	}
	langtest.Sym(t, f, "ActivityIndicator.animatingCount")

	broken := langtest.ExtractBroken(t, "Source/Core/Protected.swift", `final class Protected<Value> {
    #if canImport(Darwin)
    private let lock = UnfairLock()
    #else
    #error("This platform needs a Lock-conforming type without Foundation.")
    #endif

    private var value: Value
}
`)
	if len(broken.Errors) != 1 || broken.Errors[0].Line != 5 {
		t.Errorf("errors %v, want the #error's on line 5 alone", broken.Errors)
	}
	langtest.Sym(t, broken, "Protected.value")
}

// Swift 6's concurrency words the pinned grammar does not know, from TCA,
// Alamofire, Vapor and Hummingbird: "sending", "isolated" and "__shared"
// before a type, a bare #isolation or #_sourceLocation as a default value. The files parse
// without errors, and the signatures keep the words as written.
func TestFixupConcurrency(t *testing.T) {
	src := `public func withTaskCancellation<T: Sendable>(
  id: some Hashable & Sendable,
  cancelInFlight: Bool = false,
  isolation: isolated (any Actor)? = #isolation,
  operation: @escaping @Sendable () async throws -> T
) async rethrows -> T {
  try await operation()
}

struct Store {
  public func withDependencies<R>(
    _ updateValuesForOperation: (_ dependencies: inout DependencyValues) throws -> Void,
    operation: () async throws -> sending R
  ) async rethrows -> R {
    try updateValuesForOperation(&self.dependencies)
    return try await operation()
  }

  func performEvent(_ event: sending @escaping (any EventMonitor) -> Void) {
    queue.async { event(monitor) }
  }

  func handle(
    request: HTTPRequest,
    requestContext: consuming NIOHTTPServer.RequestContext,
    reader: consuming sending NIOHTTPServer.Reader,
    responseSender: consuming sending NIOHTTPServer.ResponseSender
  ) async throws {
    var reader = reader
  }

  public func test(
    _ path: String,
    body: ByteBuffer? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    afterResponse: (TestingHTTPResponse) async throws -> ()
  ) async throws {
    try await self.test(path, sourceLocation: sourceLocation, file: #file)
  }

  public func getResponder(for method: __shared HTTPRequest.Method) -> (any HTTPResponder<Context>)? {
    methods[method]
  }

  func names(_ g: @isolated(any) () -> Void) -> String {
    let sending = true, isolated = 1
    g(sending: sending, isolated: isolated ? a : isolated)
    return "-> sending R = #isolation"
  }
}
`
	f := langtest.Extract(t, "Sources/Core/Store.swift", src)
	p := langtest.Sym(t, f, "withTaskCancellation").Signature.Params
	if len(p) != 4 || p[2].Name != "isolation" || p[2].Type != "(any Actor)?" || p[2].Default != "#isolation" {
		t.Errorf("withTaskCancellation's params %+v", p)
	}
	if sig := langtest.Sym(t, f, "withTaskCancellation").Signature.Text; !strings.Contains(sig, "isolation: isolated (any Actor)? = #isolation,") {
		t.Errorf("signature %q", sig)
	}
	if s := langtest.Sym(t, f, "Store.withDependencies").Signature; !strings.Contains(s.Text, "operation: () async throws -> sending R )") || s.Returns != "R" {
		t.Errorf("withDependencies = %+v", s)
	}
	if sig := langtest.Sym(t, f, "Store.performEvent").Signature.Text; sig != "func performEvent(_ event: sending @escaping (any EventMonitor) -> Void)" {
		t.Errorf("performEvent's signature %q", sig)
	}
	if p := langtest.Sym(t, f, "Store.handle").Signature.Params; len(p) != 4 || p[2].Name != "reader" || p[2].Type != "NIOHTTPServer.Reader" {
		t.Errorf("handle's params %+v", p)
	}
	if s := langtest.Sym(t, f, "Store.getResponder").Signature; !strings.Contains(s.Text, "(for method: __shared HTTPRequest.Method)") ||
		len(s.Params) != 1 || s.Params[0].Type != "HTTPRequest.Method" {
		t.Errorf("getResponder = %+v", s)
	}
	if p := langtest.Sym(t, f, "Store.test").Signature.Params; len(p) != 4 || p[2].Default != "#_sourceLocation" {
		t.Errorf("test's params %+v", p)
	}
	got := string(fixup([]byte(src)))
	for _, want := range []string{"isolation:          (any Actor)? = _isolation,", "throws ->         R", "_ event:         @escaping",
		"consuming         NIOHTTPServer.Reader", "= __sourceLocation,", "file: #file", "@isolated(any)",
		"let sending = true, isolated = 1", "g(sending: sending, isolated: isolated ? a : isolated)", `"-> sending R = #isolation"`} {
		if !strings.Contains(got, want) {
			t.Errorf("fixup lacks %q:\n%s", want, got)
		}
	}
}

// FuzzFixup: whatever the input, the fixup keeps every byte offset and
// line break, so every range the parser reports holds in the file.
func FuzzFixup(f *testing.F) {
	f.Add("f(()) /A.b _$x @O() #if X\n@a\n#endif\nfunc g() {}")
	f.Add(":()") // a label at the end of the input
	f.Add("\"(())\" // /A.b\n/* _$x */ #if\n#else\n@x(\n#endif")
	f.Add("func f(a: isolated (any A)? = #isolation, b: sending T) -> sending R")
	f.Fuzz(func(t *testing.T, src string) {
		got := fixup([]byte(src))
		if len(got) != len(src) {
			t.Fatalf("length %d, want %d", len(got), len(src))
		}
		for i := range len(src) {
			if (src[i] == '\n') != (got[i] == '\n') {
				t.Fatalf("line break moved at %d: %q", i, got)
			}
		}
	})
}
