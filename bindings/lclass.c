/* lclass.c - the one class builder: a handle type's metatable made from its methods, its fields
 * and its metamethods, with the __index and __newindex every handle type shares and the one
 * unknown-member error (with its did-you-mean).
 *
 * Speed. Brains read vehicle fields at every think, so a member is found without hashing its
 * name: Lua interns short strings, so a key is the member `x` exactly when it is the same string
 * object as the interned "x" (kept alive as a key of the dispatch table). MemberKeys is an open
 * addressing table on those addresses; a key that is no member (or no string: lua_topointer gives
 * another address or NULL) ends at an empty slot and takes the dispatch table, the error path.
 * Self is recognised by the class's 64-bit tag (lsteer_test_udata) before luaL_checkudata, which
 * would hash the metatable's name on every read. */
#include <string.h>

#include "lsteer_internal.h"

enum { MEMBER_SLOTS = 128 }; /* a power of two, over twice the number of any class's members */

typedef struct MemberKeys {
    const LClass *cls;
    const void *name[MEMBER_SLOTS]; ///< NULL: empty
    int code[MEMBER_SLOTS];         ///< field code (> 0), or -n for method n of the methods array
} MemberKeys;

/* The upvalues of __index and __newindex. The dispatch table comes first: tests read the names a
 * class answers to from it (functions are methods, numbers fields). */
enum { UP_DISPATCH = 1, UP_KEYS, UP_METHODS };

static unsigned member_slot(const void *name)
{
    uintptr_t a = (uintptr_t)name;
    return (unsigned)((a >> 4) ^ (a >> 12)) & (MEMBER_SLOTS - 1);
}

static const LField *find_field(const LClass *cls, int code)
{
    for (int i = 0; i < cls->field_count; i++)
        if (cls->fields[i].code == code) return &cls->fields[i];
    return NULL;
}

static void *check_self(lua_State *L, const LClass *cls)
{
    void *self = lsteer_test_udata(L, 1, cls->tag, cls->size);
    return self ? self : luaL_checkudata(L, 1, cls->name); /* raises */
}

static int unknown_member(lua_State *L, const LClass *cls, const char *key)
{
    const char *names[128];
    int n = 0;
    lua_pushnil(L);
    while (lua_next(L, lua_upvalueindex(UP_DISPATCH)) && n < 128) {
        names[n++] = lua_tostring(L, -2);
        lua_pop(L, 1);
    }
    lua_pushfstring(L, " of %s", cls->name);
    return lsteer_unknown_error(L, "field", key, lua_tostring(L, -1), names, n);
}

/// The key at 2 was not found by address: look it up by value (the error path), else raise the
/// unknown-member error. Returns the field code, or 0 with the method pushed.
static int member_miss(lua_State *L, const LClass *cls, void *self)
{
    lua_pushvalue(L, 2);
    int type = lua_rawget(L, lua_upvalueindex(UP_DISPATCH));
    if (type == LUA_TNUMBER) {
        int code = (int)lua_tointeger(L, -1);
        lua_pop(L, 1);
        return code;
    }
    if (type == LUA_TFUNCTION) return 0; /* left on the stack */
    lua_pop(L, 1);
    if (cls->check_first) cls->check_first(L, self);
    if (lua_type(L, 2) == LUA_TSTRING) return unknown_member(L, cls, lua_tostring(L, 2));
    if (cls->flags & LCLASS_UNNAMED_KEYS) return unknown_member(L, cls, "?");
    return luaL_error(L, "%s has no field of type %s", cls->name, luaL_typename(L, 2));
}

/// The field code of the key at 2, or 0 with the method pushed, or raises the unknown-member error.
static inline int member_code(lua_State *L, const MemberKeys *mk, void *self)
{
    const void *name = lua_topointer(L, 2);
    for (unsigned i = member_slot(name); name && mk->name[i]; i = (i + 1) & (MEMBER_SLOTS - 1)) {
        if (mk->name[i] != name) continue;
        if (mk->code[i] > 0) return mk->code[i];
        lua_rawgeti(L, lua_upvalueindex(UP_METHODS), -mk->code[i]);
        return 0;
    }
    return member_miss(L, mk->cls, self);
}

static int class_index(lua_State *L)
{
    const MemberKeys *mk = lua_touserdata(L, lua_upvalueindex(UP_KEYS));
    const LClass *cls = mk->cls;
    void *self = check_self(L, cls);
    int code = member_code(L, mk, self);
    if (code == 0) return 1; /* a method: methods check self themselves */
    if (cls->check_first) cls->check_first(L, self);
    return cls->get(L, self, code);
}

static int class_newindex(lua_State *L)
{
    const MemberKeys *mk = lua_touserdata(L, lua_upvalueindex(UP_KEYS));
    const LClass *cls = mk->cls;
    void *self = check_self(L, cls);
    if (cls->flags & LCLASS_READ_ONLY_HANDLES)
        return luaL_error(L, "%s handles are read-only (remove it and make a new one)", cls->name);
    lua_settop(L, 3);
    if (cls->check_first) cls->check_first(L, self);
    if (cls->flags & LCLASS_STRING_KEYS) luaL_checkstring(L, 2); /* a number becomes its name */
    int code = member_code(L, mk, self);
    const char *key = lua_tostring(L, 2);
    if (code == 0 && (cls->flags & LCLASS_METHODS_READ_ONLY))
        return luaL_error(L, "field '%s' of %s is read-only", key, cls->name);
    if (code == 0) return luaL_error(L, "'%s' is a method of %s and cannot be assigned", key, cls->name);
    const LField *field = find_field(cls, code);
    if (!field->writable)
        return luaL_error(L, "field '%s' of %s is read-only%s", key, cls->name, field->hint ? field->hint : "");
    return cls->set(L, self, code, key);
}

/// Pushes the MemberKeys and the methods array for the dispatch table on top.
static void push_member_keys(lua_State *L, const LClass *cls)
{
    int dispatch = lua_gettop(L);
    MemberKeys *mk = lua_newuserdatauv(L, sizeof *mk, 0);
    memset(mk, 0, sizeof *mk);
    mk->cls = cls;
    lua_newtable(L);
    int methods = lua_gettop(L), n = 0, count = 0;
    lua_pushnil(L);
    while (lua_next(L, dispatch)) { /* key at -2 (alive in the dispatch table), value at -1 */
        int code;
        if (lua_type(L, -1) == LUA_TFUNCTION) {
            lua_pushvalue(L, -1);
            lua_rawseti(L, methods, ++n);
            code = -n;
        } else {
            code = (int)lua_tointeger(L, -1);
        }
        if (++count > MEMBER_SLOTS / 2) luaL_error(L, "%s: more members than MEMBER_SLOTS / 2", cls->name);
        unsigned i = member_slot(lua_topointer(L, -2));
        while (mk->name[i]) i = (i + 1) & (MEMBER_SLOTS - 1);
        mk->name[i] = lua_topointer(L, -2);
        mk->code[i] = code;
        lua_pop(L, 1);
    }
}

void lsteer_class_open(lua_State *L, const LClass *cls, int nup)
{
    int up = lua_gettop(L) - nup + 1;
    luaL_newmetatable(L, cls->name);
    int mt = lua_gettop(L);
    lua_newtable(L); /* dispatch: name -> method or field code */
    for (int i = 0; i < nup; i++) lua_pushvalue(L, up + i);
    luaL_setfuncs(L, cls->methods, nup);
    if (cls->add_methods) cls->add_methods(L);
    for (int i = 0; i < cls->field_count; i++) {
        lua_pushinteger(L, cls->fields[i].code);
        lua_setfield(L, -2, cls->fields[i].name);
    }
    push_member_keys(L, cls); /* mt, dispatch, keys, methods */
    for (int f = 0; f < 2; f++) {
        for (int i = 0; i < 3; i++) lua_pushvalue(L, mt + 1 + i);
        lua_pushcclosure(L, f == 0 ? class_index : class_newindex, 3);
        lua_setfield(L, mt, f == 0 ? "__index" : "__newindex");
    }
    lua_settop(L, mt);
    for (int i = 0; i < nup; i++) lua_pushvalue(L, up + i);
    luaL_setfuncs(L, cls->metamethods, nup);
    lua_settop(L, up - 1); /* the metatable and the upvalues */
}
