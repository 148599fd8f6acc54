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

; a pattern with two child steps costs tree-sitter's analysis of Swift's
; grammar most of a second of CPU (a function's name and body: 0.9 s of a
; 1.0 s compile), so the defining nodes of functions are captured alone
; and the Defs hook finds their names and bodies
(class_declaration declaration_kind: ["class" "struct" "enum" "actor"] name: [(type_identifier) (user_type)] @name) @definition.class
(protocol_declaration name: (type_identifier) @name) @definition.interface
(function_declaration) @definition.function
(protocol_function_declaration) @definition.function
(init_declaration) @definition.constructor
(deinit_declaration) @definition.function
(subscript_declaration) @definition.function
(property_declaration name: (pattern (simple_identifier) @name)) @definition.variable
(protocol_property_declaration name: (pattern (simple_identifier) @name)) @definition.variable
(typealias_declaration name: (type_identifier) @name) @definition.type
(associatedtype_declaration name: (type_identifier) @name) @definition.type
(enum_entry name: (simple_identifier) @name @definition.variable)

; bases: a protocol extends those it lists; what else a type or an
; extension lists it implements, but a class's superclass (Ref)
(protocol_declaration (inheritance_specifier inherits_from: (_) @name) @reference.extends)
(class_declaration (inheritance_specifier inherits_from: (_) @name) @reference.implements)

(import_declaration) @import
