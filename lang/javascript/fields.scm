; JavaScript's class fields (TypeScript's are public_field_definition:
; typescript.scm); a field holding a function is a method (Defs)
(class_body (field_definition property: (_) @name value: (_)? @_value) @definition.variable)
