/* SPDX-License-Identifier: MIT */
/* lclass.c - the one class builder: a handle type's metatable made from its methods, its fields
 * and its metamethods, with the __index and __newindex every handle type shares and the one
 * unknown-member error (with its did-you-mean). How a member is found fast: lsteer_internal.h,
 * above lsteer_class_index. */
#include <string.h>

#include "lsteer_internal.h"

/* __index and __newindex have three upvalues (LCLASS_UP_*). The dispatch table comes first: tests
 * read the names a class answers to from it (functions are methods, numbers fields). */

static const LField *find_field(const LClass *cls, int code)
{
    for (int i = 0; i < cls->field_count; i++)
        if (cls->fields[i].code == code) return &cls->fields[i];
    return NULL;
}

static void *check_self(lua_State *L, const LClass *cls)
{
    void *self = lsteer_test_udata(L, 1, cls->tag, cls->size);
    return self ? self : lsteer_check_udata(L, 1, cls->name); /* raises */
}

bool lsteer_owner_intact(lua_State *L, int idx, const void *p)
{
    const LWorld *owner =
        *(const uint64_t *)p == LSTEER_VEHICLE_TAG ? ((const LVehicle *)p)->owner : ((const LShape *)p)->owner;
    lua_getiuservalue(L, idx, 1);
    bool intact = lua_touserdata(L, -1) == owner;
    lua_pop(L, 1);
    return intact;
}

void *lsteer_check_udata(lua_State *L, int idx, const char *name)
{
    void *p = luaL_checkudata(L, idx, name); /* raises for another type */
    if (*(const uint64_t *)p != LSTEER_WORLD_TAG && !lsteer_owner_intact(L, idx, p))
        luaL_argerror(L, idx, lua_pushfstring(L, "%s whose world was taken from it (debug.setuservalue)", name));
    return p;
}

int lsteer_self_error(lua_State *L, const char *class_name, const char *var)
{
    lua_Debug ar;
    bool named = lua_getstack(L, 0, &ar) && lua_getinfo(L, "n", &ar) && ar.name;
    /* A world method given a vehicle first (w.closest(v, "prey"), w.remove(v)) lost its self to the
     * same slip; any other handle in self's place (v.wander(w)) is more likely the wrong object. */
    bool vehicle_for_world = !strcmp(class_name, WORLD_MT) && lsteer_test_vehicle(L, 1);
    if (!named || (lua_type(L, 1) == LUA_TUSERDATA && !vehicle_for_world)) return luaL_typeerror(L, 1, class_name);
    /* v.wander{} for v:wander{}: self is missing (or is the first argument), the most common
     * newcomer's slip, worth naming rather than leaving at "got table" */
    return luaL_argerror(L, 1,
                         lua_pushfstring(L, "%s expected, got %s: call it as a method, %s:%s(...)", class_name,
                                         vehicle_for_world ? VEHICLE_MT : luaL_typename(L, 1), var, ar.name));
}

static int unknown_member(lua_State *L, const LClass *cls, const char *key)
{
    const char *names[128];
    int n = 0;
    lua_pushnil(L);
    while (lua_next(L, lua_upvalueindex(LCLASS_UP_DISPATCH)) && n < 128) {
        names[n++] = lua_tostring(L, -2);
        lua_pop(L, 1);
    }
    lua_pushfstring(L, " of %s", cls->name);
    return lsteer_unknown_error(L, "field", key, lua_tostring(L, -1), names, n);
}

int lsteer_class_member_miss(lua_State *L, const LClass *cls, void *self)
{
    lua_pushvalue(L, 2);
    int type = lua_rawget(L, lua_upvalueindex(LCLASS_UP_DISPATCH));
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

/// The __index of a class without its own (lsteer_class_index with the class's get).
static int class_index(lua_State *L)
{
    const LMemberKeys *mk = lua_touserdata(L, lua_upvalueindex(LCLASS_UP_KEYS));
    return lsteer_class_index(L, mk->cls->get);
}

static int class_newindex(lua_State *L)
{
    const LMemberKeys *mk = lua_touserdata(L, lua_upvalueindex(LCLASS_UP_KEYS));
    const LClass *cls = mk->cls;
    void *self = check_self(L, cls);
    if (cls->flags & LCLASS_READ_ONLY_HANDLES)
        return luaL_error(L, "%s handles are read-only (remove it and make a new one)", cls->name);
    lua_settop(L, 3);
    if (cls->check_first) cls->check_first(L, self);
    if (cls->flags & LCLASS_STRING_KEYS) luaL_checkstring(L, 2); /* a number becomes its name */
    int code = lsteer_class_member(L, mk, self);
    const char *key = lua_tostring(L, 2);
    if (code == 0 && (cls->flags & LCLASS_METHODS_READ_ONLY))
        return luaL_error(L, "field '%s' of %s is read-only", key, cls->name);
    if (code == 0) return luaL_error(L, "'%s' is a method of %s and cannot be assigned", key, cls->name);
    const LField *field = find_field(cls, code);
    bool writable = field ? field->writable : cls->core_fields[code - cls->core_field_code].writable;
    if (!writable)
        return luaL_error(L, "field '%s' of %s is read-only%s", key, cls->name,
                          field && field->hint ? field->hint : "");
    return cls->set(L, self, code, key);
}

/// Pushes the LMemberKeys and the methods array for the dispatch table on top.
static void push_member_keys(lua_State *L, const LClass *cls)
{
    int dispatch = lua_gettop(L);
    LMemberKeys *mk = lua_newuserdatauv(L, sizeof *mk, 0);
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
        if (++count > LCLASS_MEMBER_SLOTS / 2)
            luaL_error(L, "%s: more members than LCLASS_MEMBER_SLOTS / 2", cls->name);
        unsigned i = lsteer_member_slot(lua_topointer(L, -2));
        while (mk->name[i]) i = (i + 1) & (LCLASS_MEMBER_SLOTS - 1);
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
    for (int i = 0; i < cls->core_field_count; i++) {
        lua_pushinteger(L, cls->core_field_code + i);
        lua_setfield(L, -2, cls->core_fields[i].name);
    }
    push_member_keys(L, cls); /* mt, dispatch, keys, methods */
    for (int f = 0; f < 2; f++) {
        for (int i = 0; i < 3; i++) lua_pushvalue(L, mt + 1 + i);
        lua_pushcclosure(L, f == 1 ? class_newindex : cls->index ? cls->index : class_index, 3);
        lua_setfield(L, mt, f == 0 ? "__index" : "__newindex");
    }
    lua_settop(L, mt);
    for (int i = 0; i < nup; i++) lua_pushvalue(L, up + i);
    luaL_setfuncs(L, cls->metamethods, nup);
    /* Protected: getmetatable(w) is the class's name, so that no script reaches the __gc (or swaps
     * the __index) that C code relies on, nor hands the table to setmetatable. */
    lua_pushstring(L, cls->name);
    lua_setfield(L, mt, "__metatable");
    lua_settop(L, up - 1); /* the metatable and the upvalues */
}
