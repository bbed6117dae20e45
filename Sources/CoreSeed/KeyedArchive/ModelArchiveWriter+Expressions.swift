/// Derivation expressions: the `NSExpression` graph a derived attribute holds.
///
/// `-[NSDerivedAttributeDescription setDerivationExpression:]` turns a key path ending in `.@count`
/// into the function `count:` of the key path before it (decompiled CoreData), so a model file's
/// `relationship.@count` is archived as `coredataplus-samplemodel2-v1`'s `pages.@count` is: an
/// `NSFunctionExpression` whose operand is the class `_NSPredicateUtilities` as a constant, whose one
/// argument is an `NSKeyPathExpression` (`valueForKey:` on the one `NSSelfExpression` of the archive)
/// of a key path specifier. Only that form is written; other derivations are refused by
/// ``ModelArchiveWriter/unsupported(_:)``.
extension ModelArchiveWriter {
    /// The to-many relationship of a derivation `relationship.@count` (one key, no dots), or nil.
    static func countedRelationship(_ expression: String) -> String? {
        guard expression.hasSuffix(".@count") else { return nil }
        let path = expression.dropLast(".@count".count)
        guard let first = path.first, first == "_" || first.isLetter,
              path.allSatisfy({ $0 == "_" || $0.isLetter || $0.isNumber }) else { return nil }
        return String(path)
    }

    /// `count:(relationship)` for `relationship.@count`; `identity` is the attribute's declaration.
    func encodeDerivation(_ expression: String, identity: String) -> Node {
        guard let path = Self.countedRelationship(expression) else { return archiver.null }
        return archiver.object(identity, classes: ["NSFunctionExpression", "NSExpression", "NSObject"]) { fields in
            fields.add("NSExpressionType", archiver.integer(4))
            fields.add("NSSelectorName", archiver.string("count:"))
            fields.add("NSOperand", archiver.object("\(identity):operand", classes: ["NSConstantValueExpression", "NSExpression", "NSObject"]) { constant in
                constant.add("NSExpressionType", archiver.integer(0))
                constant.add("NSConstantValueClassName", archiver.string("_NSPredicateUtilities"))
            })
            fields.add("NSArguments", archiver.collection(classes: ["NSArray", "NSObject"]) { [keyPathExpression(path, identity: "\(identity):argument")] })
        }
    }

    /// `+[NSExpression expressionForKeyPath:]` of a one-key path: `valueForKey:` on SELF.
    func keyPathExpression(_ path: String, identity: String) -> Node {
        archiver.object(identity, classes: ["NSKeyPathExpression", "NSFunctionExpression", "NSExpression", "NSObject"]) { fields in
            fields.add("NSExpressionType", archiver.integer(3))
            fields.add("NSSelectorName", archiver.string("valueForKey:"))
            fields.add("NSOperand", archiver.object("x:self", classes: ["NSSelfExpression", "NSExpression", "NSObject"]) { this in
                this.add("NSExpressionType", archiver.integer(1))
            })
            fields.add("NSArguments", archiver.collection(classes: ["NSMutableArray", "NSArray", "NSObject"]) {
                [archiver.object("\(identity):key", classes: ["NSKeyPathSpecifierExpression", "NSExpression", "NSObject"]) { specifier in
                    specifier.add("NSExpressionType", archiver.integer(10))
                    specifier.add("NSKeyPath", archiver.string(path))
                }]
            })
        }
    }
}
