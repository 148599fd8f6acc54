; Java's definitions, extends and implements, package and imports,
; started from tree-sitter-java's queries/tags.scm. java.go's hooks say
; what a match alone cannot: signatures, visibility, docs (Symbol), a
; field's range (Defs), the parts of an import (Import), and the types of
; locals, fields and receivers that calls are resolved by (Finish).
;
; The query runs from its roots (java.go's QueryRoots: the file and every
; type declaration, a local class's in a method body too), and each
; pattern starts at one: it reads a type's header and members, never the
; code of their bodies.

; a type, wherever it is declared: a local class's parent is its method
(class_declaration name: (identifier) @name body: (_)? @body) @definition.class
(record_declaration name: (identifier) @name body: (_)? @body) @definition.class
(enum_declaration name: (identifier) @name body: (_)? @body) @definition.class
(interface_declaration name: (identifier) @name body: (_)? @body) @definition.interface
(annotation_type_declaration name: (identifier) @name body: (_)? @body) @definition.interface

; the members of a named type (an anonymous class's members, and an enum
; constant's, are code of the symbol that holds them)
(class_declaration
  name: (_)
  body: (class_body
    [
      (method_declaration name: (_) @name body: (_)? @body) @definition.method
      (constructor_declaration name: (_) @name body: (_) @body) @definition.constructor
      (compact_constructor_declaration name: (_) @name body: (_) @body) @definition.constructor
      (field_declaration declarator: (variable_declarator name: (_) @name value: (_)? @body) @definition.variable)
    ]))
(record_declaration
  name: (_)
  body: (class_body
    [
      (method_declaration name: (_) @name body: (_)? @body) @definition.method
      (constructor_declaration name: (_) @name body: (_) @body) @definition.constructor
      (compact_constructor_declaration name: (_) @name body: (_) @body) @definition.constructor
      (field_declaration declarator: (variable_declarator name: (_) @name value: (_)? @body) @definition.variable)
    ]))
(enum_declaration
  name: (_)
  body: (enum_body
    (enum_body_declarations
      [
        (method_declaration name: (_) @name body: (_)? @body) @definition.method
        (constructor_declaration name: (_) @name body: (_) @body) @definition.constructor
        (compact_constructor_declaration name: (_) @name body: (_) @body) @definition.constructor
        (field_declaration declarator: (variable_declarator name: (_) @name value: (_)? @body) @definition.variable)
      ])))
(enum_declaration
  name: (_)
  body: (enum_body (enum_constant name: (_) @name body: (_)? @body) @definition.variable))
(interface_declaration
  name: (_)
  body: (interface_body
    [
      (method_declaration name: (_) @name body: (_)? @body) @definition.method
      (constant_declaration declarator: (variable_declarator name: (_) @name value: (_)? @body) @definition.variable)
    ]))
(annotation_type_declaration
  name: (_)
  body: (annotation_type_body
    [
      (annotation_type_element_declaration name: (_) @name) @definition.method
      (constant_declaration declarator: (variable_declarator name: (_) @name value: (_)? @body) @definition.variable)
    ]))

; a record's components are its fields
(record_declaration
  name: (_)
  parameters: (formal_parameters (formal_parameter name: (_) @name) @definition.variable))

; a named type's bases; Ref reads the type written at @name
(class_declaration name: (_) superclass: (superclass (_) @name @reference.extends))
(interface_declaration name: (_) (extends_interfaces (type_list (_) @name @reference.extends)))
(class_declaration name: (_) interfaces: (super_interfaces (type_list (_) @name @reference.implements)))
(record_declaration name: (_) interfaces: (super_interfaces (type_list (_) @name @reference.implements)))
(enum_declaration name: (_) interfaces: (super_interfaces (type_list (_) @name @reference.implements)))

(program (package_declaration [(identifier) (scoped_identifier)] @module))

(program (import_declaration) @import)

; a method outside any class: a script, or a file the parser broke
(program
  [
    (method_declaration name: (_) @name body: (_)? @body)
    (constructor_declaration name: (_) @name body: (_) @body)
  ] @definition.function)
