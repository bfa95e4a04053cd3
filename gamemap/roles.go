package gamemap

import "fmt"

// Engine roles of the map-dynamics row's fields.
const (
	RoleZ     = "z"
	RoleLevel = "level"
	RoleState = "state"
)

// RowField is one field of the snapshot row a map's dynamics key (its
// setId) carries, as the game's schema declares it.
type RowField struct {
	Name string
	Role string // "" for a field without a role
	U8   bool   // the field's type is u8
}

// Row head indices of the engine-written fields: z and level make the row
// layered, and the state byte follows the head.
const (
	rowZ          = 3
	rowLevel      = 4
	rowStateFlat  = 3
	rowStateLayer = 5
)

// CheckDynamicsRow checks the roles of the map-dynamics row
// [x, y, angle, z?, level?, state?, tail...]: z at index 3 and level at 4
// come as a pair and are the only authority for a layered row (fields merely
// named z and level there without the roles are an error, since a rename
// would silently give a flat row); a state byte (u8) sits right after the
// head, at 5 on a layered row and 3 on a flat one, before the optional tail
// (optionalFrom, 0 for none, must lie after it). A map whose dynamics row
// breaks this is refused with RuleRoles.
func CheckDynamicsRow(fields []RowField, optionalFrom int) error {
	fail := func(i int, msg string, a ...any) error {
		if i >= 0 {
			msg = fmt.Sprintf("field %d: ", i) + msg
		}
		return &ValidationError{Rule: RuleRoles, Level: -1, Col: -1, Row: -1, Msg: fmt.Sprintf(msg, a...)}
	}
	zAt, levelAt, stateAt := -1, -1, -1
	for i, f := range fields {
		var at *int
		switch f.Role {
		case "":
			continue
		case RoleZ:
			at = &zAt
		case RoleLevel:
			at = &levelAt
		case RoleState:
			at = &stateAt
		default:
			return fail(i, "unknown role %q", f.Role)
		}
		if *at >= 0 {
			return fail(i, "role %s is declared twice", f.Role)
		}
		*at = i
	}
	layered := zAt >= 0
	switch {
	case layered != (levelAt >= 0):
		return fail(-1, "roles z and level must be declared together")
	case layered && zAt != rowZ:
		return fail(zAt, "role z must be at index %d", rowZ)
	case layered && levelAt != rowLevel:
		return fail(levelAt, "role level must be at index %d", rowLevel)
	case !layered && len(fields) > rowLevel && fields[rowZ].Name == "z" && fields[rowLevel].Name == "level":
		return fail(rowZ, "fields named z and level at indices 3 and 4 must declare roles z and level")
	}
	if stateAt < 0 {
		return nil
	}
	want := rowStateFlat
	if layered {
		want = rowStateLayer
	}
	switch {
	case !fields[stateAt].U8:
		return fail(stateAt, "role state must be of type u8")
	case stateAt != want:
		return fail(stateAt, "role state must be at index %d", want)
	case optionalFrom != 0 && optionalFrom <= stateAt:
		return fail(stateAt, "optionalFrom %d must lie after the state field", optionalFrom)
	}
	return nil
}
