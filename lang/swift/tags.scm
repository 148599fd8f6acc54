; Swift's definitions, bases and imports, started from
; tree-sitter-swift's queries/tags.scm. swift.go's hooks say what a match
; alone cannot: which properties are symbols and that each name of an
; enum case is one (Defs), the names of init, deinit and subscript
; (DefName), signatures, visibility and the type an extension's members
; belong to (Symbol), which base of a class is its superclass (Ref), the
; parts of an import (Import), and the walk of Finish that types locals
; and receivers for the calls, guards and throws of the code.
;
; The query runs from its roots (swift.go's QueryRoots), each pattern
; starting at one, so it never walks the code of a function body. An
; extension is no symbol: its members are its type's.

; A pattern with child steps costs tree-sitter's analysis of Swift's large
; grammar CPU at every start (a function's name and body alone 0.9 s; the
; patterns below with their names about 0.06 s more than without), so the
; defining nodes are captured alone and the Defs hook finds their names
; and bodies.
(class_declaration) @definition.class
(protocol_declaration) @definition.interface
(function_declaration) @definition.function
(protocol_function_declaration) @definition.function
(init_declaration) @definition.constructor
(deinit_declaration) @definition.function
(subscript_declaration) @definition.function
(property_declaration) @definition.variable
(protocol_property_declaration) @definition.variable
(typealias_declaration) @definition.type
(associatedtype_declaration) @definition.type
(enum_entry) @definition.variable

; bases: a protocol extends those it lists; what else a type or an
; extension lists it implements, but a class's superclass (Ref)
(protocol_declaration (inheritance_specifier inherits_from: (_) @name) @reference.extends)
(class_declaration (inheritance_specifier inherits_from: (_) @name) @reference.implements)

(import_declaration) @import
