; TypeScript's and TSX's own definitions, after javascript.scm's, started
; from tree-sitter-typescript's queries/tags.scm (JavaScript's grammar has
; none of these kinds): declared types, namespaces, signatures, abstract
; classes and the fields of classes.

(interface_declaration name: (_) @name body: (_)? @body) @definition.interface
(type_alias_declaration name: (_) @name value: (_)? @body) @definition.type
(enum_declaration name: (_) @name body: (_)? @body) @definition.type
(internal_module name: (_) @name body: (_)? @body) @definition.module
(module name: (_) @name body: (_)? @body) @definition.module
(function_signature name: (_) @name) @definition.function
(abstract_class_declaration name: (_) @name body: (_) @body) @definition.class

; the types an interface extends (the Ref hook splits ns.Base<T>)
(interface_declaration (extends_type_clause (_) @name @reference.extends))

; the methods of an interface, and of the object type a type alias is
(interface_declaration body: (interface_body (method_signature name: (_) @name) @definition.method))
(type_alias_declaration value: (object_type (method_signature name: (_) @name) @definition.method))

; a class's fields (a field holding a function is a method: Defs), its
; abstract methods and overload signatures
(class_body (public_field_definition name: (_) @name value: (_)? @_value) @definition.variable)
(class_body (abstract_method_signature name: (_) @name) @definition.method)
(class_body (method_signature name: (_) @name) @definition.method)
