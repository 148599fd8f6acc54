; What only C++ adds to tags.scm: classes, namespaces, aliases; the
; imports using namespace X, using X::y and namespace fs = std::filesystem.

(class_specifier name: (_) @name body: (_) @body) @definition.class
(type_definition type: (class_specifier !name body: (_) @body) @definition.class declarator: [(type_identifier) (primitive_type)] @name)
(namespace_definition name: (_) @name body: (_) @body) @definition.module
(alias_declaration name: (_) @name) @definition.type

(using_declaration) @import
(namespace_alias_definition) @import
