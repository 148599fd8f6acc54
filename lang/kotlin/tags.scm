; Kotlin's definitions, bases, package and imports (tree-sitter-kotlin
; ships no tags.scm; these follow the grammars' common captures).
; kotlin.go's hooks say what a match alone cannot: which properties are
; symbols (Defs: not a local's, in a property's initializer), signatures,
; visibility, an extension function's type (Symbol), a secondary
; constructor's name (DefName), the parts of an import (Import), and the
; walk of Finish that types locals and receivers for the calls, guards
; and throws of the code.
;
; The query runs from its roots (kotlin.go's QueryRoots), each pattern
; starting at one, so it never walks the code of a function body.

(class_declaration name: (identifier) @name [(class_body) (enum_class_body)]? @body) @definition.class
(object_declaration name: (identifier) @name (class_body)? @body) @definition.class

; "@DslMarker annotation class KoinDslMarker", with neither parameters nor
; a body, the grammar reads as an annotated infix call
(annotated_expression
  (infix_expression . (identifier) @_mod . (identifier) @_class . (identifier) @name .)
  (#eq? @_class "class")
  (#any-of? @_mod "annotation" "enum" "open" "abstract" "sealed" "data" "inner" "value" "expect" "actual"
    "internal" "private" "public" "protected")) @definition.class
; after two annotations with arguments and a visibility, "@Retention(RUNTIME)
; @Target(FUNCTION) public annotation class ToJson", the last annotation
; loses its arguments to an infix call "(FUNCTION) public annotation"
(annotated_expression
  (infix_expression
    . (infix_expression . (parenthesized_expression) . (identifier) @_vis . (identifier) @_mod .)
    . (identifier) @_class . (identifier) @name .)
  (#eq? @_class "class")
  (#any-of? @_vis "internal" "private" "public" "protected")
  (#any-of? @_mod "annotation" "enum" "open" "abstract" "sealed" "data" "inner" "value" "expect" "actual")) @definition.class

(function_declaration name: (identifier) @name (function_body)? @body) @definition.function
(secondary_constructor (block)? @body) @definition.constructor
(type_alias type: (identifier) @name) @definition.type
(property_declaration (variable_declaration (identifier) @name)) @definition.variable
(enum_entry (identifier) @name) @definition.variable

; val and var parameters of a primary constructor are properties
(class_declaration
  (primary_constructor (class_parameters (class_parameter ["val" "var"] (identifier) @name) @definition.variable)))

; bases: an interface extends every type it lists; a class extends the
; one it calls a constructor of and implements the others
(class_declaration "interface"
  (delegation_specifiers (delegation_specifier [(user_type) @name (explicit_delegation (user_type) @name)]) @reference.extends))
(class_declaration "class"
  (delegation_specifiers (delegation_specifier [(user_type) @name (explicit_delegation (user_type) @name)]) @reference.implements))
(object_declaration
  (delegation_specifiers (delegation_specifier [(user_type) @name (explicit_delegation (user_type) @name)]) @reference.implements))
(class_declaration
  (delegation_specifiers (delegation_specifier (constructor_invocation (user_type) @name)) @reference.extends))
(object_declaration
  (delegation_specifiers (delegation_specifier (constructor_invocation (user_type) @name)) @reference.extends))

(package_header (qualified_identifier) @module)

(import) @import
