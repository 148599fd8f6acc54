; Java's definitions, extends and implements, package and imports,
; started from tree-sitter-java's queries/tags.scm. java.go's hooks say
; what a match alone cannot: signatures, visibility, docs (Symbol), the
; parts of an import (Import), and, in the walk of Finish, which
; declarations are members (it places them: a type's, not an anonymous
; class's, through code the parser gave up on) and the types of locals,
; fields and receivers that calls are resolved by.
;
; The query runs from its roots (java.go's QueryRoots: each declaration
; and import, wherever it is) and each pattern starts at one, so it reads
; declarations' headers and never walks the code of a body.

; a type: a local class's parent is its method
(class_declaration name: (identifier) @name body: (_)? @body) @definition.class
(record_declaration name: (identifier) @name body: (_)? @body) @definition.class
(enum_declaration name: (identifier) @name body: (_)? @body) @definition.class
(interface_declaration name: (identifier) @name body: (_)? @body) @definition.interface
(annotation_type_declaration name: (identifier) @name body: (_)? @body) @definition.interface

; a type's members; a method outside any class is a function
(method_declaration name: (_) @name body: (_)? @body) @definition.function
(constructor_declaration name: (_) @name body: (_) @body) @definition.constructor
(compact_constructor_declaration name: (_) @name body: (_) @body) @definition.constructor
(annotation_type_element_declaration name: (_) @name) @definition.method
(field_declaration declarator: (variable_declarator name: (_) @name value: (_)? @body) @definition.variable)
(constant_declaration declarator: (variable_declarator name: (_) @name value: (_)? @body) @definition.variable)
(enum_constant name: (_) @name body: (_)? @body) @definition.variable

; a record's components are its fields
(record_declaration
  name: (_)
  parameters: (formal_parameters (formal_parameter name: (_) @name) @definition.variable))

; a named type's bases; Ref reads the type written at @name (what the
; parser could not read there too, as Signature.Bases has it)
(class_declaration name: (_) superclass: (superclass [(_) (ERROR)] @name @reference.extends))
(interface_declaration name: (_) (extends_interfaces (type_list [(_) (ERROR)] @name @reference.extends)))
(class_declaration name: (_) interfaces: (super_interfaces (type_list [(_) (ERROR)] @name @reference.implements)))
(record_declaration name: (_) interfaces: (super_interfaces (type_list [(_) (ERROR)] @name @reference.implements)))
(enum_declaration name: (_) interfaces: (super_interfaces (type_list [(_) (ERROR)] @name @reference.implements)))

(package_declaration [(identifier) (scoped_identifier)] @module)

(import_declaration) @import
