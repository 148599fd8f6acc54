; PHP's classes, interfaces, traits, enums, functions, methods, promoted
; constructor parameters, properties, constants and enum cases, started
; from tree-sitter-php's queries/tags.scm. php.go's hooks say what a
; match alone cannot: signatures, visibility and PHPDoc (Symbol), and
; the walk (Finish) that places the definitions where it meets them (a
; method, property or enum case of the innermost class, an anonymous
; class's the named one's; a method outside every class a function) and
; follows the classes of variables to the calls it records.
;
; The query runs from its roots (php.go's QueryRoots: each declaration,
; wherever it is) and each pattern starts at one, so it reads
; declarations' headers and never walks the code of a body.

(class_declaration name: (_) @name body: (_)? @body) @definition.class
(interface_declaration name: (_) @name body: (_)? @body) @definition.interface
(trait_declaration name: (_) @name body: (_)? @body) @definition.class
(enum_declaration name: (_) @name body: (_)? @body) @definition.class

(function_definition name: (_) @name body: (_)? @body) @definition.function
(method_declaration name: (_) @name body: (_)? @body) @definition.method

; a constructor's promoted parameters are properties
(method_declaration
  name: (_)
  parameters: (formal_parameters (property_promotion_parameter name: (_) @name) @definition.variable))

(property_declaration (property_element name: (_) @name default_value: (_)? @body) @definition.variable)
(const_declaration (const_element . (name) @name) @definition.variable)
(enum_case name: (_) @name) @definition.variable
