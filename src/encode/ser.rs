//! A `serde::Serializer` that writes what `serde_json::to_vec` writes
//! (serde_json 1.0.154, compact formatter), into any [`Sink`], without a
//! heap.
//!
//! It follows serde_json's `Serializer` and `MapKeySerializer` method by
//! method; the differences are additions that keep a frame decodable: a
//! nesting limit ([`EncodeError::TooDeep`]), an optional "must be an object"
//! rule for the outermost value ([`EncodeError::NotAnObject`]), and arrays and
//! objects always closed by `end` (serde_json writes `[]` at once when told
//! the length is 0, and a `Serialize` impl that then adds elements anyway
//! makes it write broken JSON; here the brackets stay balanced).

use core::fmt::{self, Display};

use serde::ser::{self, Impossible, Serialize};

use super::error::EncodeError;
use super::sink::Sink;
use super::write::{
    EscapeFmt, escape_str, write_f32, write_f64, write_i64, write_i128, write_u64, write_u128,
};

impl ser::Error for EncodeError {
    fn custom<T: Display>(_msg: T) -> Self {
        Self::Serialize
    }
}

/// The serializer state: the sink, the open containers, and the rules for
/// the outermost value.
pub(crate) struct JsonSer<'s, S: ?Sized> {
    out: &'s mut S,
    depth: usize,
    max_depth: usize,
    root_object: bool,
}

impl<'s, S: Sink + ?Sized> JsonSer<'s, S> {
    pub(crate) const fn new(out: &'s mut S, max_depth: usize, root_object: bool) -> Self {
        Self {
            out,
            depth: 0,
            max_depth,
            root_object,
        }
    }

    /// Called before a value that is not an object.
    fn scalar(&self) -> Result<(), EncodeError> {
        if self.root_object && self.depth == 0 {
            Err(EncodeError::NotAnObject)
        } else {
            Ok(())
        }
    }

    fn open(&mut self, bracket: &[u8]) -> Result<(), EncodeError> {
        if self.depth >= self.max_depth {
            return Err(EncodeError::TooDeep);
        }
        self.depth += 1;
        self.out.try_extend(bracket)
    }

    fn close(&mut self, bracket: &[u8]) -> Result<(), EncodeError> {
        self.depth = self.depth.saturating_sub(1);
        self.out.try_extend(bracket)
    }

    fn str(&mut self, s: &str) -> Result<(), EncodeError> {
        self.out.try_extend(b"\"")?;
        escape_str(self.out, s)?;
        self.out.try_extend(b"\"")
    }

    /// `{"variant":` for the externally tagged enum forms.
    fn variant_key(&mut self, variant: &str) -> Result<(), EncodeError> {
        self.open(b"{")?;
        self.str(variant)?;
        self.out.try_extend(b":")
    }

    fn display(&mut self, value: &(impl Display + ?Sized)) -> Result<(), EncodeError> {
        self.out.try_extend(b"\"")?;
        let mut adapter = EscapeFmt {
            out: &mut *self.out,
            error: None,
        };
        if fmt::write(&mut adapter, format_args!("{value}")).is_err() {
            return Err(adapter.error.unwrap_or(EncodeError::Serialize));
        }
        self.out.try_extend(b"\"")
    }
}

/// How a compound value closes.
#[derive(Clone, Copy)]
enum Close {
    /// `]`
    Array,
    /// `}`
    Object,
    /// `]}`: a tuple variant.
    ArrayInVariant,
    /// `}}`: a struct variant.
    ObjectInVariant,
}

/// A sequence, map or struct being written.
pub(crate) struct Compound<'a, 's, S: ?Sized> {
    ser: &'a mut JsonSer<'s, S>,
    first: bool,
    close: Close,
}

impl<S: Sink + ?Sized> Compound<'_, '_, S> {
    fn comma(&mut self) -> Result<(), EncodeError> {
        if core::mem::take(&mut self.first) {
            Ok(())
        } else {
            self.ser.out.try_extend(b",")
        }
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EncodeError> {
        self.comma()?;
        value.serialize(&mut *self.ser)
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), EncodeError> {
        self.comma()?;
        self.ser.str(key)?;
        self.ser.out.try_extend(b":")?;
        value.serialize(&mut *self.ser)
    }

    fn finish(self) -> Result<(), EncodeError> {
        match self.close {
            Close::Array => self.ser.close(b"]"),
            Close::Object => self.ser.close(b"}"),
            Close::ArrayInVariant => {
                self.ser.close(b"]")?;
                self.ser.close(b"}")
            }
            Close::ObjectInVariant => {
                self.ser.close(b"}")?;
                self.ser.close(b"}")
            }
        }
    }
}

impl<'a, 's, S: Sink + ?Sized> ser::Serializer for &'a mut JsonSer<'s, S> {
    type Ok = ();
    type Error = EncodeError;
    type SerializeSeq = Compound<'a, 's, S>;
    type SerializeTuple = Compound<'a, 's, S>;
    type SerializeTupleStruct = Compound<'a, 's, S>;
    type SerializeTupleVariant = Compound<'a, 's, S>;
    type SerializeMap = Compound<'a, 's, S>;
    type SerializeStruct = Compound<'a, 's, S>;
    type SerializeStructVariant = Compound<'a, 's, S>;

    fn serialize_bool(self, v: bool) -> Result<(), EncodeError> {
        self.scalar()?;
        self.out.try_extend(if v { b"true" } else { b"false" })
    }

    fn serialize_i8(self, v: i8) -> Result<(), EncodeError> {
        self.serialize_i64(i64::from(v))
    }

    fn serialize_i16(self, v: i16) -> Result<(), EncodeError> {
        self.serialize_i64(i64::from(v))
    }

    fn serialize_i32(self, v: i32) -> Result<(), EncodeError> {
        self.serialize_i64(i64::from(v))
    }

    fn serialize_i64(self, v: i64) -> Result<(), EncodeError> {
        self.scalar()?;
        write_i64(self.out, v)
    }

    fn serialize_i128(self, v: i128) -> Result<(), EncodeError> {
        self.scalar()?;
        write_i128(self.out, v)
    }

    fn serialize_u8(self, v: u8) -> Result<(), EncodeError> {
        self.serialize_u64(u64::from(v))
    }

    fn serialize_u16(self, v: u16) -> Result<(), EncodeError> {
        self.serialize_u64(u64::from(v))
    }

    fn serialize_u32(self, v: u32) -> Result<(), EncodeError> {
        self.serialize_u64(u64::from(v))
    }

    fn serialize_u64(self, v: u64) -> Result<(), EncodeError> {
        self.scalar()?;
        write_u64(self.out, v)
    }

    fn serialize_u128(self, v: u128) -> Result<(), EncodeError> {
        self.scalar()?;
        write_u128(self.out, v)
    }

    fn serialize_f32(self, v: f32) -> Result<(), EncodeError> {
        self.scalar()?;
        write_f32(self.out, v)
    }

    fn serialize_f64(self, v: f64) -> Result<(), EncodeError> {
        self.scalar()?;
        write_f64(self.out, v)
    }

    fn serialize_char(self, v: char) -> Result<(), EncodeError> {
        let mut buf = [0u8; 4];
        self.serialize_str(v.encode_utf8(&mut buf))
    }

    fn serialize_str(self, v: &str) -> Result<(), EncodeError> {
        self.scalar()?;
        self.str(v)
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<(), EncodeError> {
        self.scalar()?;
        self.open(b"[")?;
        for (i, &b) in v.iter().enumerate() {
            if i > 0 {
                self.out.try_extend(b",")?;
            }
            write_u64(self.out, u64::from(b))?;
        }
        self.close(b"]")
    }

    fn serialize_none(self) -> Result<(), EncodeError> {
        self.serialize_unit()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), EncodeError> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), EncodeError> {
        self.scalar()?;
        self.out.try_extend(b"null")
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), EncodeError> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), EncodeError> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), EncodeError> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), EncodeError> {
        self.variant_key(variant)?;
        value.serialize(&mut *self)?;
        self.close(b"}")
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, EncodeError> {
        self.scalar()?;
        self.open(b"[")?;
        Ok(Compound {
            ser: self,
            first: true,
            close: Close::Array,
        })
    }

    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, EncodeError> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct, EncodeError> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, EncodeError> {
        self.variant_key(variant)?;
        self.open(b"[")?;
        Ok(Compound {
            ser: self,
            first: true,
            close: Close::ArrayInVariant,
        })
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, EncodeError> {
        self.open(b"{")?;
        Ok(Compound {
            ser: self,
            first: true,
            close: Close::Object,
        })
    }

    fn serialize_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStruct, EncodeError> {
        self.serialize_map(Some(len))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, EncodeError> {
        self.variant_key(variant)?;
        self.open(b"{")?;
        Ok(Compound {
            ser: self,
            first: true,
            close: Close::ObjectInVariant,
        })
    }

    fn collect_str<T: Display + ?Sized>(self, value: &T) -> Result<(), EncodeError> {
        self.scalar()?;
        self.display(value)
    }
}

impl<S: Sink + ?Sized> ser::SerializeSeq for Compound<'_, '_, S> {
    type Ok = ();
    type Error = EncodeError;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EncodeError> {
        self.element(value)
    }

    fn end(self) -> Result<(), EncodeError> {
        self.finish()
    }
}

impl<S: Sink + ?Sized> ser::SerializeTuple for Compound<'_, '_, S> {
    type Ok = ();
    type Error = EncodeError;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EncodeError> {
        self.element(value)
    }

    fn end(self) -> Result<(), EncodeError> {
        self.finish()
    }
}

impl<S: Sink + ?Sized> ser::SerializeTupleStruct for Compound<'_, '_, S> {
    type Ok = ();
    type Error = EncodeError;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EncodeError> {
        self.element(value)
    }

    fn end(self) -> Result<(), EncodeError> {
        self.finish()
    }
}

impl<S: Sink + ?Sized> ser::SerializeTupleVariant for Compound<'_, '_, S> {
    type Ok = ();
    type Error = EncodeError;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EncodeError> {
        self.element(value)
    }

    fn end(self) -> Result<(), EncodeError> {
        self.finish()
    }
}

impl<S: Sink + ?Sized> ser::SerializeMap for Compound<'_, '_, S> {
    type Ok = ();
    type Error = EncodeError;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), EncodeError> {
        self.comma()?;
        key.serialize(MapKeySer {
            ser: &mut *self.ser,
        })
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EncodeError> {
        self.ser.out.try_extend(b":")?;
        value.serialize(&mut *self.ser)
    }

    fn end(self) -> Result<(), EncodeError> {
        self.finish()
    }
}

impl<S: Sink + ?Sized> ser::SerializeStruct for Compound<'_, '_, S> {
    type Ok = ();
    type Error = EncodeError;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), EncodeError> {
        self.field(key, value)
    }

    fn end(self) -> Result<(), EncodeError> {
        self.finish()
    }
}

impl<S: Sink + ?Sized> ser::SerializeStructVariant for Compound<'_, '_, S> {
    type Ok = ();
    type Error = EncodeError;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), EncodeError> {
        self.field(key, value)
    }

    fn end(self) -> Result<(), EncodeError> {
        self.finish()
    }
}

/// serde_json's `MapKeySerializer`: strings as they are; integers, bools
/// and finite floats quoted; anything else is an error.
struct MapKeySer<'a, 's, S: ?Sized> {
    ser: &'a mut JsonSer<'s, S>,
}

impl<S: Sink + ?Sized> MapKeySer<'_, '_, S> {
    fn quoted(
        self,
        write: impl FnOnce(&mut S) -> Result<(), EncodeError>,
    ) -> Result<(), EncodeError> {
        self.ser.out.try_extend(b"\"")?;
        write(self.ser.out)?;
        self.ser.out.try_extend(b"\"")
    }
}

impl<S: Sink + ?Sized> ser::Serializer for MapKeySer<'_, '_, S> {
    type Ok = ();
    type Error = EncodeError;
    type SerializeSeq = Impossible<(), EncodeError>;
    type SerializeTuple = Impossible<(), EncodeError>;
    type SerializeTupleStruct = Impossible<(), EncodeError>;
    type SerializeTupleVariant = Impossible<(), EncodeError>;
    type SerializeMap = Impossible<(), EncodeError>;
    type SerializeStruct = Impossible<(), EncodeError>;
    type SerializeStructVariant = Impossible<(), EncodeError>;

    fn serialize_str(self, v: &str) -> Result<(), EncodeError> {
        self.ser.str(v)
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), EncodeError> {
        self.ser.str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), EncodeError> {
        value.serialize(self)
    }

    fn serialize_bool(self, v: bool) -> Result<(), EncodeError> {
        self.quoted(|out| out.try_extend(if v { b"true" } else { b"false" }))
    }

    fn serialize_i8(self, v: i8) -> Result<(), EncodeError> {
        self.serialize_i64(i64::from(v))
    }

    fn serialize_i16(self, v: i16) -> Result<(), EncodeError> {
        self.serialize_i64(i64::from(v))
    }

    fn serialize_i32(self, v: i32) -> Result<(), EncodeError> {
        self.serialize_i64(i64::from(v))
    }

    fn serialize_i64(self, v: i64) -> Result<(), EncodeError> {
        self.quoted(|out| write_i64(out, v))
    }

    fn serialize_i128(self, v: i128) -> Result<(), EncodeError> {
        self.quoted(|out| write_i128(out, v))
    }

    fn serialize_u8(self, v: u8) -> Result<(), EncodeError> {
        self.serialize_u64(u64::from(v))
    }

    fn serialize_u16(self, v: u16) -> Result<(), EncodeError> {
        self.serialize_u64(u64::from(v))
    }

    fn serialize_u32(self, v: u32) -> Result<(), EncodeError> {
        self.serialize_u64(u64::from(v))
    }

    fn serialize_u64(self, v: u64) -> Result<(), EncodeError> {
        self.quoted(|out| write_u64(out, v))
    }

    fn serialize_u128(self, v: u128) -> Result<(), EncodeError> {
        self.quoted(|out| write_u128(out, v))
    }

    fn serialize_f32(self, v: f32) -> Result<(), EncodeError> {
        if !v.is_finite() {
            return Err(EncodeError::Serialize);
        }
        self.quoted(|out| write_f32(out, v))
    }

    fn serialize_f64(self, v: f64) -> Result<(), EncodeError> {
        if !v.is_finite() {
            return Err(EncodeError::Serialize);
        }
        self.quoted(|out| write_f64(out, v))
    }

    fn serialize_char(self, v: char) -> Result<(), EncodeError> {
        let mut buf = [0u8; 4];
        self.ser.str(v.encode_utf8(&mut buf))
    }

    fn serialize_bytes(self, _v: &[u8]) -> Result<(), EncodeError> {
        Err(EncodeError::Serialize)
    }

    fn serialize_unit(self) -> Result<(), EncodeError> {
        Err(EncodeError::Serialize)
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), EncodeError> {
        Err(EncodeError::Serialize)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<(), EncodeError> {
        Err(EncodeError::Serialize)
    }

    fn serialize_none(self) -> Result<(), EncodeError> {
        Err(EncodeError::Serialize)
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), EncodeError> {
        value.serialize(self)
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, EncodeError> {
        Err(EncodeError::Serialize)
    }

    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, EncodeError> {
        Err(EncodeError::Serialize)
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, EncodeError> {
        Err(EncodeError::Serialize)
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, EncodeError> {
        Err(EncodeError::Serialize)
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, EncodeError> {
        Err(EncodeError::Serialize)
    }

    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, EncodeError> {
        Err(EncodeError::Serialize)
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, EncodeError> {
        Err(EncodeError::Serialize)
    }

    fn collect_str<T: Display + ?Sized>(self, value: &T) -> Result<(), EncodeError> {
        self.ser.display(value)
    }
}
